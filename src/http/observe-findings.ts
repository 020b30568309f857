/**
 * The seam between a finished /v1 request and the findings rules (contract §5.1): reads what the
 * middlewares left on `ctx.state` into the rules' narrow input (src/findings/observation.ts). Called
 * by the journal middleware as the request finishes, whether the journal keeps entries or not, so a
 * request's journal entry can list the findings it raised.
 */
import type { Instant, RequestObservation } from '../findings/observation.js';
import type { SandboxContext } from './context.js';
import { answeredNothing } from './faults.js';
import { clientIp, requestTime } from './identify-caller.js';
import { replyStatus } from './reply.js';

const NONE: readonly string[] = Object.freeze([]);

/** The two clocks of the request's account now (the sandbox clock for requests without a known key). */
export function instantOf(ctx: SandboxContext): Instant {
  return { real: ctx.state.world.realTime(), virtual: requestTime(ctx).clock.now() };
}

function parsedBody(raw: string | undefined): () => unknown {
  return () => {
    if (raw === undefined || raw === '') return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  };
}

const RETRY_AFTER_SECONDS = /^\d+$/;

function observation(ctx: SandboxContext, raw: string | undefined, arrived: Instant, answered: Instant): RequestObservation {
  const { caller, operation, fault, reply, headers, rateLimit } = ctx.state;
  const known = caller?.kind === 'api_key';
  const status = answeredNothing(fault) ? null : replyStatus(ctx);
  const body = reply?.body as { error?: { code?: unknown }; id?: unknown; status?: unknown } | undefined;
  const retryAfter = status === 429 ? headers.get('Retry-After') : undefined;
  const sunset = headers.get('Deprecation') === undefined ? undefined : headers.get('Sunset');
  const key = ctx.get('Idempotency-Key');
  return {
    requestId: ctx.state.requestId,
    accountId: known ? caller.account.id : null,
    apiKeyId: known ? caller.key.id : null,
    callerIp: caller?.kind === 'anonymous' ? caller.ip : clientIp(ctx),
    method: ctx.method,
    path: ctx.path,
    querystring: ctx.querystring,
    body: parsedBody(raw),
    idempotencyKey: key === '' ? undefined : key,
    operationId: operation?.operationId ?? null,
    status,
    errorCode: typeof body?.error?.code === 'string' ? body.error.code : undefined,
    retryAfterSeconds: retryAfter !== undefined && RETRY_AFTER_SECONDS.test(retryAfter) ? Number(retryAfter) : undefined,
    deprecation: sunset === undefined ? undefined : { sunset: new Date(sunset).toISOString() },
    fault: fault?.type ?? null,
    // The client went away before the answer left (its timeout, an abort): no answer, a failure.
    closedEarly: !ctx.res.writableEnded && Boolean(ctx.req.socket?.destroyed),
    rateLimited: status !== 429 ? undefined : rateLimit?.allowed === false ? 'quota' : 'scenario',
    rateLimitWindow: status === 429 && rateLimit?.allowed === false ? rateLimit.resetAt : undefined,
    tookEffect: fault?.when === 'after' && status !== null && status < 400,
    job:
      operation?.operationId === 'getJob' && status === 200 && typeof body?.id === 'string' && typeof body.status === 'string'
        ? { id: body.id, status: body.status }
        : undefined,
    arrived,
    answered,
  };
}

/** The ids of the findings the request raised (none when findings are off). */
export function observeFindings(ctx: SandboxContext, raw: string | undefined, arrived: Instant, answered: Instant): readonly string[] {
  const findings = ctx.state.world.findings;
  if (!findings) return NONE;
  const { caller, fault, operation, headers } = ctx.state;
  const known = caller?.kind === 'api_key';
  const plain =
    fault === undefined &&
    operation?.operationId !== 'getJob' &&
    headers.get('Deprecation') === undefined &&
    !findings.mayRaise(known ? caller.key.id : null, caller?.kind === 'anonymous' ? caller.ip : clientIp(ctx), replyStatus(ctx));
  // Nothing pending for this credential and a plain success: no rule can fire (closed-early aside).
  if (plain && !ctx.req.socket?.destroyed) return NONE;
  try {
    return findings.requestFinished(observation(ctx, raw, arrived, answered));
  } catch {
    // Judging the client must never break serving it.
    return NONE;
  }
}
