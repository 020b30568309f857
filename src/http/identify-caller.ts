import type { TimeDomain } from '../sandbox/time-domain.js';
import type { Caller, SandboxContext, SandboxMiddleware } from './context.js';

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is not.
const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/**
 * The client address requests without an API key are counted by (spec §5.5). A dual-stack socket
 * reports an IPv4 client as `::ffff:a.b.c.d`; it is the same client as `a.b.c.d`.
 */
export function clientIp(ctx: SandboxContext): string {
  const ip = ctx.ip;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/** Reads the credential without judging it yet: rate limiting needs the caller before auth rules. */
export function identifyCaller(ctx: SandboxContext): Caller {
  const header = ctx.req.headers.authorization;
  if (!header) return { kind: 'anonymous', ip: clientIp(ctx), reason: 'missing' };
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) return { kind: 'anonymous', ip: clientIp(ctx), reason: 'malformed' };
  const found = ctx.state.world.store.findByToken(match[1]);
  if (!found) return { kind: 'anonymous', ip: clientIp(ctx), reason: 'unknown' };
  return { kind: 'api_key', account: found.account, key: found.key };
}

/**
 * Identifies the caller and captures its time domain once (contract §4.1): its account's own clock,
 * or the sandbox clock for accounts that share it and for requests without a known key. Everything
 * time-based in the request reads it through `requestTime`.
 */
export function callerIdentification(): SandboxMiddleware {
  return function identifyCallerMiddleware(ctx, next) {
    const caller = identifyCaller(ctx);
    const world = ctx.state.world;
    ctx.state.caller = caller;
    const time = caller.kind === 'api_key' ? world.timeOf(caller.account.id) : world.sharedTime;
    ctx.state.time = time;
    if (time !== world.sharedTime) ctx.state.arrivedAt = time.clock.now();
    return next();
  };
}

/** The request's time domain: the caller's, once identified; the sandbox clock's before that. */
export function requestTime(ctx: SandboxContext): TimeDomain {
  return ctx.state.time ?? ctx.state.world.sharedTime;
}
