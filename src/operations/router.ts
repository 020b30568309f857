/**
 * Builds the /v1 router from the operation table. Each operation gets the per-operation middleware
 * chain (given by app.ts, where the whole order is visible) followed by `dispatch`, which runs the
 * handler on the input `validateRequest` checked.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { Next, SandboxContext, SandboxState } from '../http/context.js';
import type { JobScenarioSource } from '../jobs/outcome.js';
import { toRouterPath, type OperationDef } from './types.js';
import { validateBody, validateQuery, validatorsFor, type OperationValidators } from './validation.js';

export type SandboxMiddleware = (ctx: SandboxContext, next: Next) => Promise<void>;
export type OperationPipeline = (op: OperationDef) => SandboxMiddleware[];

/** Sets `ctx.state.operation` first, so every later middleware knows what it is serving. */
export function bindOperation(op: OperationDef): SandboxMiddleware {
  return async function bindOperationMiddleware(ctx, next) {
    ctx.state.operation = op;
    await next();
  };
}

/**
 * Checks path parameters, query and body against the declaration and leaves the result on
 * `ctx.state.input`. Separate from `dispatch` so that middlewares between the two (idempotency) see
 * only requests that are valid, and never remember a validation failure.
 */
export function validateRequest(op: OperationDef): SandboxMiddleware {
  // Compiled on the operation's first request and cached for the process: compiling every schema at
  // boot cost most of the CLI's cold start. test/core-operations.test.ts compiles them all, so a
  // broken schema still fails the build rather than a user's request.
  let validators: OperationValidators | undefined;
  return async function validateRequestMiddleware(ctx, next) {
    validators ??= validatorsFor(op);
    const params = { ...(ctx as unknown as { params: Record<string, string> }).params };
    if (validators.params && !validators.params(params)) {
      const failed = validators.params.errors?.[0]?.instancePath.slice(1) ?? 'id';
      throw new ApiError('resource_missing', { param: failed, message: `No such object: '${params[failed] ?? ''}'.` });
    }
    const query: Record<string, unknown> = { ...ctx.query };
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
    await next();
  };
}

/** For pipelines without the scenarios middleware (tests of single middlewares). */
const NO_SCENARIOS: JobScenarioSource = { jobDecision: () => undefined };

/** Runs the handler on the validated input and writes its result: the end of every operation's chain. */
export function dispatch(op: OperationDef): SandboxMiddleware {
  return async function dispatchMiddleware(ctx, next) {
    const { store, apiKey, input } = ctx.state;
    if (!store || !apiKey) throw new Error('dispatch must run after authenticate');
    if (!input) throw new Error('dispatch must run after validateRequest');
    const scenarios = ctx.state.scenarios ?? NO_SCENARIOS;
    const result = await op.handler({ ...input, store, apiKey, sandbox: ctx.sandbox, path: ctx.path, scenarios });
    ctx.status = result.status ?? op.success.status;
    ctx.body = result.body;
    // No next(): the operation is answered. (A later matching layer must not run.)
    void next;
  };
}

/** Unknown paths answer 404 and known paths with another method 405 (with `Allow`), in the envelope. */
export function routeFallback(router: Router<SandboxState>): SandboxMiddleware {
  return async function routeFallbackMiddleware(ctx, next) {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0) {
      const allow = [...new Set(matched.path.flatMap((layer) => layer.methods))].join(', ');
      throw new ApiError('method_not_allowed', { message: MESSAGES.methodNotAllowed(ctx.method, ctx.path, allow), headers: { Allow: allow } });
    }
    throw new ApiError('resource_missing', { message: MESSAGES.unknownRoute(ctx.method, ctx.path) });
  };
}

export function buildApiRouter(prefix: string, operations: readonly OperationDef[], pipeline: OperationPipeline): Router<SandboxState> {
  const router = new Router<SandboxState>({ prefix });
  const seen = new Set<string>();
  for (const op of operations) {
    const key = `${op.method} ${op.path}`;
    if (seen.has(key) || seen.has(op.operationId)) throw new Error(`Duplicate operation ${op.operationId} (${key})`);
    seen.add(key).add(op.operationId);
    const chain = [...pipeline(op), dispatch(op)] as unknown as Middleware[];
    router.register(toRouterPath(op.path), [op.method], chain, { name: op.operationId });
  }
  return router;
}
