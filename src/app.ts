/**
 * `createApp(options)`: the whole sandbox as a Koa app, with no socket. The middleware order of
 * every request is written out here, in one place.
 */
import Koa from 'koa';
import compose from 'koa-compose';
import { ADMIN_PREFIX, adminApi } from './admin/routes.js';
import type { RealTimeSource } from './clock/virtual-clock.js';
import { authenticate } from './http/authenticate.js';
import { captureWorld } from './http/capture-world.js';
import { deprecation } from './http/announce-deprecation.js';
import { deriveSeeded } from './http/derive-seeded.js';
import type { SandboxContext, SandboxState } from './http/context.js';
import { errorEnvelope } from './http/error-envelope.js';
import { ArtificialDelays } from './http/delays.js';
import { HeldConnections } from './http/faults.js';
import { callerIdentification } from './http/identify-caller.js';
import { idempotency } from './http/idempotency.js';
import { journal } from './http/journal.js';
import { jsonBody } from './http/json-body.js';
import { AccountTurns } from './http/account-turns.js';
import { largeBodyLane } from './http/large-body-lane.js';
import { isUnder } from './http/path-prefix.js';
import { observeResponses, type ResponseObserver } from './http/observe-responses.js';
import { rateLimit } from './http/enforce-rate-limit.js';
import { requestId } from './http/request-id.js';
import { sendReply } from './http/reply.js';
import { requestFinished } from './http/request-finished.js';
import { requestLog, type LogWriter } from './http/request-log.js';
import { applyScenarios } from './http/scenarios.js';
import { apiRoutes, unknownPath, validateRequest, type SandboxMiddleware } from './http/router.js';
import type { OperationDef } from './operations/types.js';
import { deprecationPredicate } from './openapi/deprecation.js';
import { OpenApiPublisher, openApiRoute } from './openapi/publisher.js';
import { resolveOptions, type MockOptions } from './config/options.js';
import { ACCOUNT_SEEDERS, OPERATIONS } from './resources/index.js';
import { Sandbox } from './sandbox/sandbox.js';
import { WORLD_MODULES } from './sandbox/modules.js';
import type { WorldModule } from './sandbox/world-module.js';
import type { World } from './sandbox/world.js';
import { checkDeprecatedOperations } from './fixture/fixture-file.js';

export interface CreateAppOptions extends MockOptions {
  /** Injectable real-time source for the virtual clock (tests). */
  realTime?: RealTimeSource;
  /** Where `log: true` writes its lines; stderr by default. */
  logWriter?: LogWriter;
  /** Called with every finished /v1 response (logging, metrics, contract checks); see `responseObservers`. */
  onResponse?: ResponseObserver;
}

export type MockApp = Koa<SandboxState, { sandbox: Sandbox }> & {
  sandbox: Sandbox;
  /** The OpenAPI document of this instance, as served at `GET /openapi.json`. */
  openapi: OpenApiPublisher;
  /** Observers of finished /v1 responses; add to watch an app made elsewhere. */
  responseObservers: Set<ResponseObserver>;
  /** Connections held by `no-response` faults; the server closes them when it closes. */
  heldConnections: HeldConnections;
  /** `slow-responses` delays under way; the server ends them when it closes, and answers. */
  delays: ArtificialDelays;
};

export const API_PREFIX = '/v1';

const terminal = async (): Promise<void> => {};

/** Runs `middleware` for paths under `prefix` (a whole segment) and ends the chain there. */
function under(prefix: string, middleware: SandboxMiddleware): SandboxMiddleware {
  return function underPrefix(ctx, next) {
    return isUnder(ctx.path, prefix) ? middleware(ctx, terminal) : next();
  };
}

/**
 * What each operation runs, in order, after the /v1 chain (caller identification, rate limit) has
 * matched it and bound `ctx.state.operation`; `dispatch` (the handler) follows. Deprecation comes first so that every answer of a
 * deprecated operation carries its headers; scenarios come next, so their answers (a 500, a 429,
 * an expired key) carry those headers too, come before authentication, and never reach idempotency;
 * idempotency sits right around the handler, after validation, so it only ever remembers requests
 * that reached the operation; the account's seeded records are derived (in slices) last, for the
 * operations that read them, so only a request that runs its handler pays for them.
 */
function operationPipeline(op: OperationDef, delays: ArtificialDelays, lane: SandboxMiddleware, turns: AccountTurns): SandboxMiddleware[] {
  return [
    deprecation(),
    applyScenarios(delays),
    authenticate(),
    // An account's requests enter their operations one per turn of the event loop, in arrival order.
    turns.step(op.seededRecords === false),
    ...(op.body ? [lane, jsonBody()] : []),
    validateRequest(op),
    idempotency(),
    // Last: only a request that will run the handler derives, and the handler finds the records cached.
    deriveSeeded(op.seededRecords ?? 'read'),
  ];
}

export function createApp(options: CreateAppOptions = {}): MockApp {
  return createAppWithOperations(options, OPERATIONS);
}

/**
 * `createApp` with another operation table (and world module list). Internal (not exported by the
 * package): tests of the protocol middlewares add operations with behaviour no real one has (a
 * handler that waits, one that fails once) and run them through exactly the pipeline every real
 * operation gets; tests of the module contract add a module to the list.
 */
export function createAppWithOperations(
  options: CreateAppOptions,
  operations: readonly OperationDef[],
  modules: readonly WorldModule<World>[] = WORLD_MODULES,
): MockApp {
  const resolved = resolveOptions(options);
  const sandbox = new Sandbox(resolved, options.realTime, operations, ACCOUNT_SEEDERS, modules);
  checkDeprecatedOperations(
    sandbox.fixture,
    resolved.deprecations,
    operations.map((op) => op.operationId),
  );
  const app = new Koa<SandboxState, { sandbox: Sandbox }>() as MockApp;
  app.sandbox = sandbox;
  app.context.sandbox = sandbox;
  app.openapi = new OpenApiPublisher(operations, () => deprecationPredicate(sandbox), { webhookTimeoutMs: resolved.webhookTimeoutMs });
  app.responseObservers = new Set(options.onResponse ? [options.onResponse] : []);
  app.heldConnections = new HeldConnections();
  app.delays = new ArtificialDelays();
  app.proxy = false;
  // Errors never reach Koa's own handler (the envelope answers them); keep it silent in test suites.
  app.silent = true;

  // One lane map for the app: an account's large bodies take turns whatever operation they go to.
  const lane = largeBodyLane();
  const turns = new AccountTurns();
  const v1 = compose<SandboxContext>([
    callerIdentification(),
    rateLimit(),
    apiRoutes(API_PREFIX, operations, (op) => operationPipeline(op, app.delays, lane, turns)),
  ]) as SandboxMiddleware;

  const stack: SandboxMiddleware[] = [
    // First of all: every later layer reads the world the request arrived in (src/sandbox/world.ts).
    captureWorld(),
    // Outside the writer, so observers see what was written.
    observeResponses(app.responseObservers, API_PREFIX),
    // Writes the staged headers and the answer in one go (Koa's respond for routes that set ctx.body);
    // then tells the world's modules how the request finished, written or not.
    sendReply(app.heldConnections, requestFinished(API_PREFIX)),
    requestId(),
    ...(resolved.log ? [requestLog(options.logWriter ? { write: options.logWriter } : {})] : []),
    // Outside the envelope, so it records the status actually sent, errors included.
    journal(API_PREFIX),
    errorEnvelope(),
    under(API_PREFIX, v1),
    // Outside /v1: the OpenAPI document (no key, not counted), the admin API, and 404s in the envelope.
    openApiRoute(app.openapi),
    under(ADMIN_PREFIX, adminApi(resolved)),
    unknownPath(),
  ];
  for (const middleware of stack) app.use(middleware);
  return app;
}
