import type { SandboxContext, SandboxMiddleware } from './context.js';
import { stageHeader } from './reply.js';

export interface RequestIdOptions {
  /** Injectable generator; the default is the sandbox's deterministic counter. */
  generate?: (ctx: SandboxContext) => string;
}

/** Gives every response a `Request-Id` (spec §7.3.4), also sent as `X-Request-Id` (the guide's name). */
export function requestId(options: RequestIdOptions = {}) {
  const generate = options.generate ?? ((ctx: SandboxContext) => ctx.state.world.requestIds.next());
  const middleware: SandboxMiddleware = function requestIdMiddleware(ctx, next) {
    const id = generate(ctx);
    ctx.state.requestId = id;
    stageHeader(ctx, 'Request-Id', id);
    stageHeader(ctx, 'X-Request-Id', id);
    return next();
  };
  return middleware;
}
