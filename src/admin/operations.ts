/**
 * Every admin route, one table assembled from the lists declared beside each feature. It drives the
 * router (routes.ts), the OpenAPI document (`GET /__admin/openapi.json`), the reference table of
 * docs/admin-api.md and the tests that hold the client to it. Adding an admin route is one
 * declaration in its feature's list (and its line in AdminRoutes, api-types.ts, which the compiler
 * asks for).
 */
import type { AdminRouteKey } from './api-types.js';
import { ACCOUNT_OPERATIONS } from './account-operations.js';
import { FINDINGS_OPERATIONS } from './findings-operations.js';
import { COVERAGE_OPERATIONS } from './coverage-operations.js';
import { JOURNAL_OPERATIONS } from './journal-operations.js';
import { openApiOperation, type AdminFeature } from './openapi-document.js';
import type { AdminOperation } from './route-kit.js';
import { RECORDS_OPERATIONS } from './records-operations.js';
import { SANDBOX_OPERATIONS } from './sandbox-operations.js';
import { SCENARIO_OPERATIONS } from './scenario-operations.js';
import { SNAPSHOT_OPERATIONS } from './snapshot-operations.js';
import { TENANT_OPERATIONS } from './tenant-operations.js';
import { WEBHOOK_OPERATIONS } from './webhook-operations.js';

const OPEN_API = openApiOperation(() => ADMIN_FEATURES);

/** In router order: within one path, the order of its methods is the order of `Allow` in a 405. */
export const ADMIN_FEATURES: readonly AdminFeature[] = [
  {
    tag: 'Sandbox',
    description: 'Health, reset, the sandbox clock and this document (contract §3.1, §3.3, §5.4).',
    operations: [...SANDBOX_OPERATIONS, OPEN_API],
  },
  {
    tag: 'Accounts',
    description: 'Accounts and their API keys: tenants for tests (contract §3.2, §4.1).',
    operations: [...ACCOUNT_OPERATIONS, ...RECORDS_OPERATIONS],
  },
  { tag: 'Tenants', description: "An account's own clock, its reset and its deletion (contract §4.1).", operations: TENANT_OPERATIONS },
  {
    tag: 'Snapshots',
    description: 'An account taken whole and loaded again, here or elsewhere (contract §5.3).',
    operations: SNAPSHOT_OPERATIONS,
  },
  {
    tag: 'Scenarios',
    description: 'Activate and deactivate the scenarios of scenarios/ (contract §3.5, §4.2).',
    operations: SCENARIO_OPERATIONS,
  },
  { tag: 'Journal', description: 'What clients sent to /v1 and what they got (contract §3.4, §4.4).', operations: JOURNAL_OPERATIONS },
  { tag: 'Findings', description: "Where clients broke the service's rules (contract §5.1).", operations: FINDINGS_OPERATIONS },
  {
    tag: 'Webhooks',
    description: 'Webhook endpoints, the delivery log and triggered events (contract §4.3).',
    operations: WEBHOOK_OPERATIONS,
  },
  {
    tag: 'Coverage',
    description: 'What clients exercised of /v1 and of the webhooks, counted as requests and deliveries finish (contract §5.2).',
    operations: COVERAGE_OPERATIONS,
  },
];

export const ADMIN_OPERATIONS: readonly AdminOperation[] = ADMIN_FEATURES.flatMap((feature) => feature.operations);

/** Every route of AdminRoutes is declared: the compiler refuses this line while one is missing. */
type Declared =
  | (typeof SANDBOX_OPERATIONS)[number]['route']
  | (typeof OPEN_API)['route']
  | (typeof ACCOUNT_OPERATIONS)[number]['route']
  | (typeof RECORDS_OPERATIONS)[number]['route']
  | (typeof TENANT_OPERATIONS)[number]['route']
  | (typeof SNAPSHOT_OPERATIONS)[number]['route']
  | (typeof SCENARIO_OPERATIONS)[number]['route']
  | (typeof JOURNAL_OPERATIONS)[number]['route']
  | (typeof FINDINGS_OPERATIONS)[number]['route']
  | (typeof WEBHOOK_OPERATIONS)[number]['route']
  | (typeof COVERAGE_OPERATIONS)[number]['route'];
export const EVERY_ROUTE_DECLARED: [Exclude<AdminRouteKey, Declared>] extends [never] ? true : never = true;
