/**
 * The HTTP side of spec §9: the rules and the registry are protocol state (src/protocol/deprecation.ts);
 * this module writes a deprecation's headers on the response being built.
 */
import { deprecationHeaders, type DeprecationInfo } from '../protocol/deprecation.js';
import type { SandboxContext, SandboxMiddleware } from './context.js';
import { stageHeaders } from './reply.js';

/**
 * Announces `info` on this response: its three headers, staged at once so errors thrown later carry
 * them. A later announcement (a scenario's, for this request only) replaces them.
 */
export function announceDeprecation(ctx: SandboxContext, info: DeprecationInfo): void {
  stageHeaders(ctx, deprecationHeaders(info));
}

/**
 * Per-operation middleware, right after the operation is bound: every response of a deprecated
 * operation carries the headers, its errors (401, 404, 422…) included, because they are set before
 * anything below can fail and the error envelope keeps headers already set. A scenario that
 * deprecates the request announces its own deprecation later, over this one.
 */
export function deprecation(): SandboxMiddleware {
  return function deprecationMiddleware(ctx, next) {
    const operation = ctx.state.operation;
    const info = operation ? ctx.state.world.deprecations.get(operation.operationId) : undefined;
    if (info) announceDeprecation(ctx, info);
    return next();
  };
}
