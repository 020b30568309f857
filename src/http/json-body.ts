/**
 * Request bodies are JSON objects (spec §1). koa-bodyparser reads them with a size limit; this
 * wrapper refuses what it would silently ignore: a write whose body is not JSON, and JSON that is not
 * an object.
 */
import bodyParser from 'koa-bodyparser';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { Next, SandboxContext } from './context.js';
import { BODY_LIMIT } from './error-envelope.js';

function hasBody(ctx: SandboxContext): boolean {
  const length = ctx.get('Content-Length');
  if (length !== '') return Number(length) > 0;
  return ctx.get('Transfer-Encoding') !== '';
}

export function jsonBody() {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: BODY_LIMIT,
    strict: false,
    // Errors go to the envelope; koa-bodyparser's default would answer text.
    onerror: (error) => {
      throw error;
    },
  });
  return async function jsonBodyMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    if (hasBody(ctx) && !ctx.is('application/json', '+json')) throw new ApiError('bad_request', { message: MESSAGES.bodyNotJson });
    await parse(ctx as never, async () => {
      const body = (ctx.request as { body?: unknown }).body;
      const raw = (ctx.request as { rawBody?: string }).rawBody;
      // koa-bodyparser reports an empty body as {}; a body of `null`, an array or a scalar is refused.
      if (raw !== undefined && raw.trim() !== '' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
        throw new ApiError('bad_request', { message: MESSAGES.bodyNotObject });
      }
      await next();
    });
  };
}
