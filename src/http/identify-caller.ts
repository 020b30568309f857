import type { Caller, Next, SandboxContext } from './context.js';

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

/** Reads the credential without judging it yet: rate limiting needs the caller before auth rules. */
export function identifyCaller(ctx: SandboxContext): Caller {
  const header = ctx.get('Authorization');
  if (!header) return { kind: 'anonymous', ip: ctx.ip, reason: 'missing' };
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) return { kind: 'anonymous', ip: ctx.ip, reason: 'malformed' };
  const found = ctx.sandbox.store.findByToken(match[1]);
  if (!found) return { kind: 'anonymous', ip: ctx.ip, reason: 'unknown' };
  return { kind: 'api_key', account: found.account, key: found.key };
}

export function callerIdentification() {
  return async function identifyCallerMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    ctx.state.caller = identifyCaller(ctx);
    await next();
  };
}
