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

export function callerIdentification(): SandboxMiddleware {
  return function identifyCallerMiddleware(ctx, next) {
    ctx.state.caller = identifyCaller(ctx);
    return next();
  };
}
