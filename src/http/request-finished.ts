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

async function watch(ctx: SandboxContext, next: Next): Promise<void> {
  const { world } = ctx.state;
  const realStart = world.realTime();
  const sharedStart = world.clock.now();
  try {
    await next();
  } finally {
    const { caller, operation, scenarios, fault, headers, idempotencyKey } = ctx.state;
    const known = caller?.kind === 'api_key';
    const exchange: RequestExchange = {
      requestId: ctx.state.requestId,
      accountId: known ? caller.account.id : null,
      apiKeyId: known ? caller.key.id : null,
      callerIp: clientIp(ctx),
      method: ctx.method,
      path: ctx.path,
      query: ctx.query as Record<string, string | string[]>,
      operationId: operation?.operationId ?? null,
      body: sentBody(ctx),
      idempotencyKey: idempotencyKey ?? null,
      status: answeredNothing(fault) ? null : replyStatus(ctx),
      headers: {
        retryAfter: headers.get('Retry-After') ?? null,
        deprecation: headers.get('Deprecation') ?? null,
        sunset: headers.get('Sunset') ?? null,
      },
      fault: fault?.type ?? null,
      closedEarly: !fault && ctx.state.reply !== undefined && ctx.state.written !== true,
      scenarioIds: scenarios ? scenarios.scenarioIds() : [],
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
