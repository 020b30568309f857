/**
 * The first middleware of every request: captures the sandbox's current world into
 * `ctx.state.world`. Everything after it (request id, journal, rate limit, authentication,
 * scenarios, idempotency, the handler) reads that world and never `ctx.sandbox`'s, so a request
 * belongs to the world it started in from its first byte to its last, whatever resets come while
 * its body is still arriving or it waits (src/sandbox/world.ts). One property read per request.
 */
import type { SandboxMiddleware } from './context.js';

export function captureWorld(): SandboxMiddleware {
  return function captureWorldMiddleware(ctx, next) {
    ctx.state.world = ctx.sandbox.world;
    return next();
  };
}
