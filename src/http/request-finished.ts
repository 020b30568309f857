/**
 * Feeds the world modules that watch traffic (`requestFinished`, src/sandbox/world-module.ts) with
 * what each finished /v1 request looked like. It sits right outside the writer, so it knows whether
 * the answer was written, lost to a fault or left unwritten because the client went away. With no
 * module listening (the world's list is empty) a request passes untouched and nothing is built.
 */
import type { RequestExchange } from '../sandbox/world-module.js';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { answeredNothing } from './faults.js';
import { clientIp } from './identify-caller.js';
import { bodyLeftUnread, bodyReadLate } from './journal.js';
import { isUnder } from './path-prefix.js';
import { replyStatus } from './reply.js';

/** The body as sent, when it was read and is JSON; null otherwise. */
function sentBody(ctx: SandboxContext): unknown {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  if (raw === undefined || raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function parsed(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The body answered before it was read, as a reader a listener calls only if it needs it. */
function lateBody(ctx: SandboxContext): (() => Promise<unknown>) | null {
  if ((ctx.request as { rawBody?: string }).rawBody !== undefined || !bodyLeftUnread(ctx)) return null;
  return () => bodyReadLate(ctx).then(parsed);
}

async function watch(ctx: SandboxContext, next: Next): Promise<void> {
  const { world } = ctx.state;
  const realStart = world.realTime();
  const sharedStart = world.clock.now();
  try {
    await next();
  } finally {
    const { caller, operation, scenarios, fault, headers, idempotencyKey, rateLimit, reply } = ctx.state;
    const known = caller?.kind === 'api_key';
    const status = answeredNothing(fault) ? null : replyStatus(ctx);
    const answer = reply?.body as { error?: { code?: unknown }; id?: unknown; status?: unknown } | undefined;
    const keySent = ctx.get('Idempotency-Key');
    const quota = status === 429 && rateLimit?.allowed === false;
    // The body and the query are parsed only if a listener reads them: most requests are plain
    // successes that no rule looks into, and a megabyte body would be parsed for nothing.
    let body: { value: unknown } | undefined;
    let query: Record<string, string | string[]> | undefined;
    const exchange: RequestExchange = {
      requestId: ctx.state.requestId,
      accountId: known ? caller.account.id : null,
      apiKeyId: known ? caller.key.id : null,
      callerIp: clientIp(ctx),
      method: ctx.method,
      path: ctx.path,
      get query() {
        return (query ??= ctx.query as Record<string, string | string[]>);
      },
      operationId: operation?.operationId ?? null,
      get body() {
        return (body ??= { value: sentBody(ctx) }).value;
      },
      idempotencyKey: idempotencyKey ?? null,
      status,
      headers: {
        retryAfter: headers.get('Retry-After') ?? null,
        deprecation: headers.get('Deprecation') ?? null,
        sunset: headers.get('Sunset') ?? null,
      },
      fault: fault?.type ?? null,
      closedEarly: !fault && ctx.state.reply !== undefined && ctx.state.written !== true,
      scenarioIds: scenarios ? scenarios.scenarioIds() : [],
      idempotencyKeySent: keySent === '' ? null : keySent,
      errorCode: typeof answer?.error?.code === 'string' ? answer.error.code : null,
      rateLimitedBy: status !== 429 ? null : quota ? 'quota' : 'scenario',
      rateLimitResetAt: quota ? rateLimit.resetAt : null,
      tookEffect: fault?.when === 'after' && status !== null && status < 400,
      job:
        operation?.operationId === 'getJob' && status === 200 && typeof answer?.id === 'string' && typeof answer.status === 'string'
          ? { id: answer.id, status: answer.status }
          : null,
      lateBody: lateBody(ctx),
      scenarioNames: scenarios ? scenarios.scenarioNames() : [],
      accountForgotten: known && world.store.forAccount(caller.account.id) !== caller.account,
      realStart,
      realEnd: world.realTime(),
      // The caller's clock: an own clock's arrival was read when the caller was identified.
      virtualStart: ctx.state.arrivedAt ?? sharedStart,
      virtualEnd: (ctx.state.time ?? world.sharedTime).clock.now(),
    };
    for (const listen of world.requestListeners) listen(exchange);
  }
}

export function requestFinished(prefix: string): SandboxMiddleware {
  return function requestFinishedMiddleware(ctx, next) {
    if (ctx.state.world.requestListeners.length === 0 || !isUnder(ctx.path, prefix)) return next();
    return watch(ctx, next);
  };
}
