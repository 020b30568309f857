/**
 * Applies the scenarios matching a request (src/scenarios/engine.ts), in the per-operation pipeline
 * right after `deprecation` and before `authenticate`:
 * - the scenario a request asks for itself, `Prefer: scenario=<name>` (RFC 7240, params as the
 *   preference's parameters: `Prefer: scenario=rate-limited; retry_after=5`), comes first; when it
 *   acts, the response says `Preference-Applied: scenario=<name>`;
 * - a delay waits for real (the one real timer of the sandbox: latency is what a client's timeout
 *   test needs), bounded by MAX_DELAY_MS, and ends early if the client goes away or the server closes;
 * - a deprecation is announced (its headers), over the registry's;
 * - an answer (an error, an expired key) is thrown before authentication and before `idempotency`,
 *   so the operation never runs and its 500 or 429 is never remembered under an Idempotency-Key;
 * - a job effect waits for the handler: `dispatch` binds the request's job factory to these scenarios;
 * - a transport fault (contract §4.2) is handed to `sendReply` on `ctx.state.fault`: `before`, the
 *   operation never runs; `after`, it runs (idempotency and the journal keep its answer) and only
 *   the writing is replaced.
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { ScenarioActivationError, type RequestPlan } from '../scenarios/engine.js';
import type { ErrorEffect } from '../scenarios/definition.js';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { announceDeprecation } from './announce-deprecation.js';
import { requestTime } from './identify-caller.js';
import { parsePrefer } from '../protocol/prefer.js';
import { rateLimitSubject, scenarioRateLimitExceeded } from '../protocol/rate-limit.js';
import { ArtificialDelays } from './delays.js';
import { answeredNothing } from './faults.js';
import { stageHeader } from './reply.js';

export const PREFER_SCENARIO = 'scenario';

/** The scenario the request asks for, if any; a bad name or param is 400 naming the header. */
function requestedScenario(ctx: SandboxContext) {
  const preference = parsePrefer(ctx.headers.prefer).find((p) => p.name === PREFER_SCENARIO);
  if (!preference) return undefined;
  const refuse = (detail: string) => new ApiError('bad_request', { param: 'Prefer', message: MESSAGES.preferScenario(detail) });
  if (preference.value === undefined || preference.value === '') throw refuse('give a scenario name: `Prefer: scenario=<name>`');
  try {
    return ctx.state.world.scenarios.requested(preference.value, Object.fromEntries(preference.params.map(([k, v]) => [k, v ?? ''])));
  } catch (error) {
    if (error instanceof ScenarioActivationError) throw refuse(error.message);
    throw error;
  }
}

function errorAnswer(ctx: SandboxContext, error: ErrorEffect): ApiError {
  const overrides = { ...(error.message ? { message: error.message } : {}), ...(error.status ? { status: error.status } : {}) };
  const { caller, rateLimit } = ctx.state;
  if (error.code === 'rate_limit_exceeded' && caller && rateLimit) {
    // The limiter's own 429, headers and `plan_tier` included; refused, so not counted either.
    const { rateLimiter, clock } = requestTime(ctx);
    const now = clock.now();
    rateLimiter.refund(rateLimitSubject(caller).subject, now);
    const limited = scenarioRateLimitExceeded(rateLimit, now, error.retry_after);
    return new ApiError(error.code, { message: limited.message, headers: limited.headers, extra: limited.extra, ...overrides });
  }
  return new ApiError(error.code, {
    ...(error.code === 'internal_error' ? { message: MESSAGES.internal } : {}),
    ...(error.retry_after !== undefined ? { headers: { 'Retry-After': String(error.retry_after) } } : {}),
    ...overrides,
  });
}

function answer(ctx: SandboxContext, planned: NonNullable<RequestPlan['answer']>): ApiError {
  if ('expireKey' in planned) return new ApiError('authentication_required', { message: MESSAGES.authExpired });
  return errorAnswer(ctx, planned.error);
}

/** `delays`: the app's delays under way, which closing the server ends (src/http/delays.ts). */
export function applyScenarios(delays: ArtificialDelays): SandboxMiddleware {
  return function applyScenariosMiddleware(ctx, next) {
    // Nothing active and nothing asked for: the request goes on untouched (the common case).
    if (!ctx.state.world.scenarios.hasActive() && ctx.headers.prefer === undefined) return next();
    return runScenarios(ctx, next, delays);
  };
}

async function runScenarios(ctx: SandboxContext, next: Next, delays: ArtificialDelays): Promise<void> {
  const { operation, caller } = ctx.state;
  if (!operation) throw new Error('applyScenarios must run after apiRoutes bound the operation');
  const requested = requestedScenario(ctx);
  const known = caller?.kind === 'api_key';
  const scenarios = ctx.state.world.scenarios.forRequest(
    { operation, accountId: known ? caller.account.id : null, apiKeyId: known ? caller.key.id : null },
    requested,
  );
  ctx.state.scenarios = scenarios;
  try {
    // Planned (and counted) before any await: `times` stays exact under concurrent requests.
    const plan = scenarios.plan(known);
    if (plan.delayMs) await delays.wait(plan.delayMs, ctx.res);
    if (plan.deprecate) announceDeprecation(ctx, { operationId: operation.operationId, ...plan.deprecate });
    // A fault is acted out by `sendReply`; before the operation, most faults leave nothing to answer,
    // and `truncated-response` cuts the answer the request would get without the operation: the
    // scenario's own (a 429 cut short) or a 500.
    const fault = plan.fault;
    if (fault) ctx.state.fault = fault;
    if (answeredNothing(fault)) return;
    if (plan.answer) throw answer(ctx, plan.answer);
    if (fault?.when === 'before') throw new ApiError('internal_error', { message: MESSAGES.internal });
    await next();
  } finally {
    const applied = scenarios.preferenceApplied();
    if (applied) stageHeader(ctx, 'Preference-Applied', applied);
  }
}
