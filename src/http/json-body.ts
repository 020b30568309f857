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

export const MAX_BODY_DEPTH = 32;

/** Depth of the deepest object or array inside `value`, counted without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
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
      // 1 MiB of brackets nests ~500k deep; recursive code further on (canonical JSON for
      // idempotency, metadata merging) must never see that.
      if (nestingDepth(body) > MAX_BODY_DEPTH) throw new ApiError('bad_request', { message: MESSAGES.bodyTooDeep(MAX_BODY_DEPTH) });
      await next();
    });
  };
}
