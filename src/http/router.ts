/**
 * Routes /v1 requests through the operation table. Each operation gets the per-operation middleware
 * chain (given by app.ts, where the whole order is visible), composed once at start-up, followed by
 * `dispatch`, which runs the handler on the input `validateRequest` checked.
 */
import type Router from '@koa/router';
import compose from 'koa-compose';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxMiddleware, SandboxState } from './context.js';
import { jobFactory } from '../jobs/create.js';
import { requestTime } from './identify-caller.js';
import { RequestEvents } from './publish-events.js';
import { hasLargeBody, yieldTurn } from './large-body-lane.js';
import { reply } from './reply.js';
import { RouteTable } from './route-table.js';
import { flatSerializer, successSerializer } from '../operations/serializer.js';
import type { HandlerResult, OperationDef } from '../operations/types.js';
import { validateBody, validateQuery, validatorsFor, type OperationValidators } from '../operations/validation.js';

export type { SandboxMiddleware };
export type OperationPipeline = (op: OperationDef) => SandboxMiddleware[];

/**
 * Checks path parameters, query and body against the declaration and leaves the result on
 * `ctx.state.input`. Separate from `dispatch` so that middlewares between the two (idempotency) see
 * only requests that are valid, and never remember a validation failure.
 */
export function validateRequest(op: OperationDef): SandboxMiddleware {
  // Compiled on the operation's first request and cached for the process: compiling every schema at
  // boot cost most of the CLI's cold start. test/operations/declarations.test.ts compiles them all, so a
  // broken schema still fails the build rather than a user's request.
  let validators: OperationValidators | undefined;
  return function validateRequestMiddleware(ctx, next) {
    validators ??= validatorsFor(op);
    // The route table binds a fresh object per request: no copy needed.
    const params = (ctx as unknown as { params: Record<string, string> }).params;
    // Kept as a boolean: ajv's validator is a type guard, and its false branch would narrow `params` to never.
    const paramsValid = validators.params ? validators.params(params) : true;
    if (!paramsValid) {
      const failed = validators.params?.errors?.[0]?.instancePath.slice(1) ?? 'id';
      throw new ApiError('resource_missing', { param: failed, message: `No such object: '${params[failed] ?? ''}'.` });
    }
    // A copy (validation coerces in place); with no query string there is nothing to parse.
    const query: Record<string, unknown> = ctx.querystring === '' ? {} : { ...ctx.query };
    validateQuery(validators.query, query);
    let body: Record<string, unknown> | undefined;
    if (op.body) {
      body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
      if (op.bodyRequired && Object.keys(body).length === 0 && !(ctx.request as { rawBody?: string }).rawBody) {
        throw new ApiError('bad_request', { message: MESSAGES.bodyNotObject });
      }
      validateBody(validators.body, body, op.body);
    }
    ctx.state.input = { params, query, body };
    return next();
  };
}

/** Runs the handler on the validated input and writes its result: the end of every operation's chain. */
export function dispatch(op: OperationDef): SandboxMiddleware {
  const serialize = successSerializer(op);
  const serializeLarge = flatSerializer(serialize);
  const write = (ctx: SandboxContext, result: HandlerResult, events: RequestEvents): void => {
    const status = result.status ?? op.success.status;
    const body = result.body;
    // Serialized here, inside the envelope, so a serializer failure still answers in the envelope.
    let text: string | undefined;
    if (status === op.success.status && body !== undefined && typeof body !== 'string') {
      if (events.deferred) {
        // A large answer: one flat text, which an event of the same view takes as its JSON.
        text = serializeLarge(body);
        events.answered(body, text);
      } else text = serialize(body);
    }
    reply(ctx, status, body, text);
  };
  // No next(): the operation is answered. Most handlers are synchronous; only those that return a
  // promise are waited for, so the common answer costs no extra microtask.
  return function dispatchMiddleware(ctx) {
    const { store, apiKey, input } = ctx.state;
    if (!store || !apiKey) throw new Error('dispatch must run after authenticate');
    if (!input) throw new Error('dispatch must run after validateRequest');
    const scenarios = ctx.state.scenarios;
    const { params, query, body } = input;
    const sandbox = requestTime(ctx).services;
    // A large body's events wait for its answer's text (src/http/publish-events.ts).
    const large = hasLargeBody(ctx);
    const events = new RequestEvents(ctx, large);
    const result = op.handler({
      params,
      query,
      body,
      store,
      apiKey,
      sandbox,
      path: ctx.path,
      // The request's scenarios decide its jobs first (none without the scenarios middleware).
      jobs: jobFactory(sandbox, scenarios && (() => scenarios.jobDecision())),
      events,
    });
    if (result instanceof Promise) return result.then((settled) => write(ctx, settled, events));
    // The answer of a large body (an update echoes it) is serialized in the next turn, not in the
    // operation's. Handlers answer with views made in the handler (`viewFrom` copies a record's
    // members, `jobView` builds a job's), never a live record, and the in-place updates the store
    // makes (`Collection.update`, `last_used_at`, credits) assign members of the record, never of a
    // view or of an object a view shares: the view reads the same a turn later.
    if (large) return yieldTurn().then(() => write(ctx, result, events));
    write(ctx, result, events);
    return Promise.resolve();
  };
}

/** The error for a request no route answers: 405 with `Allow` when the path has other methods, else 404. */
function noRoute(ctx: SandboxContext, allow: string | undefined): ApiError {
  if (allow !== undefined) {
    return new ApiError('method_not_allowed', {
      message: MESSAGES.methodNotAllowed(ctx.method, ctx.path, allow),
      headers: { Allow: allow },
    });
  }
  return new ApiError('resource_missing', { message: MESSAGES.unknownRoute(ctx.method, ctx.path) });
}

/**
 * For a @koa/router router: a path no route answered is a 404, a route's path with another method a
 * 405 with `Allow`, in the envelope. Only route layers count: a `router.use` layer matches every
 * path and has no methods (it once turned every unknown admin path into a 405 with an empty `Allow`).
 */
export function routeFallback(router: Router<SandboxState>): SandboxMiddleware {
  return async function routeFallbackMiddleware(ctx, next) {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const methods = router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods);
    throw noRoute(ctx, methods.length > 0 ? [...new Set(methods)].join(', ') : undefined);
  };
}

/** The end of the chain: a path under no prefix and no route, answered 404 in the envelope. */
export function unknownPath(): SandboxMiddleware {
  return function unknownPathMiddleware(ctx) {
    throw noRoute(ctx, undefined);
  };
}

interface CompiledOperation {
  op: OperationDef;
  run: (ctx: SandboxContext) => Promise<void>;
}

/**
 * The /v1 router: finds the operation of the request, sets `ctx.state.operation` and `ctx.params`
 * (so every later middleware knows what it serves), and runs the operation's chain. Unknown paths
 * answer 404 and known paths with another method 405 with `Allow`, in the envelope.
 */
export function apiRoutes(prefix: string, operations: readonly OperationDef[], pipeline: OperationPipeline): SandboxMiddleware {
  const seen = new Set<string>();
  const routes = operations.map((op) => {
    const key = `${op.method} ${op.path}`;
    if (seen.has(key) || seen.has(op.operationId)) throw new Error(`Duplicate operation ${op.operationId} (${key})`);
    seen.add(key).add(op.operationId);
    const chain = compose<SandboxContext>([...pipeline(op), dispatch(op)]);
    const target: CompiledOperation = { op, run: (ctx) => chain(ctx) };
    return { method: op.method, path: op.path, target };
  });
  const table = new RouteTable(prefix, routes);
  return function apiRoutesMiddleware(ctx) {
    const found = table.lookup(ctx.method, ctx.path);
    if (found.kind !== 'found') throw noRoute(ctx, found.kind === 'method_not_allowed' ? found.allow : undefined);
    const { op, run } = found.target;
    ctx.state.operation = op;
    (ctx as unknown as { params: Record<string, string> }).params = found.params;
    return run(ctx);
  };
}
