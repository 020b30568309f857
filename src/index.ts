/** The package's public API. */
export { createApp, API_PREFIX, type CreateAppOptions, type MockApp } from './app.js';
export { startMockServer, type MockServer } from './server.js';
export {
  AdminClient,
  AdminError,
  type AdminAccount,
  type AdminApiKey,
  type ClockState,
  type AccountStateSnapshot,
  type AccountTemplate,
  type CreateAccountInput,
  type PinnedRecords,
  type ActivateScenario,
  type ActiveScenario,
  type AvailableScenario,
  type JournalEntry,
  type JournalQuery,
  type Finding,
  type FindingsQuery,
} from './admin/client.js';
export { expectNoFindings, describeFindings, FindingsError, type FindingsSource } from './findings/expect-no-findings.js';
export { RULES as FINDING_RULES } from './findings/finding.js';
export { ConfigError } from './errors/config-error.js';
export { resolveOptions, type MockOptions, type ResolvedOptions } from './config/options.js';
export { DataFileError } from './errors/data-file-error.js';
export { FixtureError } from './fixture/fixture-file.js';
export { ScenarioFileError } from './scenarios/definition.js';
export type { Sandbox } from './sandbox/sandbox.js';
export type { World } from './sandbox/world.js';
export { parseDeprecation, deprecationHeaders, type DeprecationInfo } from './protocol/deprecation.js';
export { announceDeprecation } from './http/announce-deprecation.js';
export type { JobOutcomeRule, JobOutcomeDecision } from './jobs/outcome.js';
export { ERROR_CATALOG, type ErrorCode } from './errors/catalog.js';
export { OPERATIONS } from './resources/index.js';
export { type FinishedResponse, type ResponseObserver } from './http/observe-responses.js';
export { buildOpenApiDocument, API_VERSION, type OpenApiDocument } from './openapi/document.js';
export {
  attachFailureArtifacts,
  saveFailureArtifacts,
  collectFailureArtifacts,
  failureFolder,
  DEFAULT_FAILURE_DIR,
  type AttachingTestInfo,
  type FailedTest,
  type FailureArtifacts,
  type FailureFile,
} from './admin/failure-artifacts.js';
