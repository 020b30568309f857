/**
 * The one place errors become responses. Anything thrown below is answered with the spec's envelope
 * (§7.1); unknown errors become a plain `internal_error` without a stack. It never rethrows: Koa's
 * fallback handler would strip our headers and answer text/plain.
 */
import { ApiError, isApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { BODY_LIMIT } from '../protocol/body-limit.js';
import type { Next, SandboxContext } from './context.js';
import { reply, stageHeaders } from './reply.js';

/** Errors raised by libraries below us (body parsing) carry `type`/`status`; map the ones we know. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const e = error as { type?: string; status?: number; expose?: boolean } | undefined;
  // co-body (under koa-bodyparser) reports unparsable JSON as a SyntaxError with status 400.
  if (error instanceof SyntaxError && e?.status === 400) return new ApiError('bad_request', { message: MESSAGES.bodyMalformed });
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError('bad_request', { message: MESSAGES.bodyMalformed });
    case 'entity.too.large':
      return new ApiError('bad_request', { message: MESSAGES.bodyTooLarge(BODY_LIMIT) });
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.size.invalid':
    case 'request.aborted':
      return new ApiError('bad_request');
    default:
      return new ApiError('internal_error', { message: MESSAGES.internal });
  }
}

export interface ErrorEnvelopeOptions {
  /** Called with errors that became `internal_error`, for logging; quiet by default. */
  onInternalError?: (error: unknown, ctx: SandboxContext) => void;
}

export function errorEnvelope(options: ErrorEnvelopeOptions = {}) {
  return async function errorEnvelopeMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'internal_error' && !isApiError(error)) options.onInternalError?.(error, ctx);
      stageHeaders(ctx, apiError.headers);
      reply(ctx, apiError.status, apiError.toBody());
    }
  };
}
