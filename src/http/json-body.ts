/**
 * Request bodies are JSON objects (spec §1). This middleware reads the body itself (so that it can
 * undo any content coding first, see content-coding.ts), caps it at the body limit, and refuses what
 * a lenient parser would silently accept: a body that is not JSON, and JSON that is not an object.
 * An empty body, whatever its headers say, is no body at all.
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { contentCodings, decodeContent } from './content-coding.js';
import { LARGE_BODY_BYTES, yieldTurn } from './large-body-lane.js';
import type { Next, SandboxContext } from './context.js';
import { BODY_LIMIT, BODY_LIMIT_BYTES } from '../protocol/body-limit.js';

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

function announcesBody(ctx: SandboxContext): boolean {
  const length = ctx.get('Content-Length');
  if (length !== '') return Number(length) > 0;
  return ctx.get('Transfer-Encoding') !== '';
}

const tooLarge = () => new ApiError('bad_request', { message: MESSAGES.bodyTooLarge(BODY_LIMIT) });

/**
 * The bytes of the body as received, at most `BODY_LIMIT_BYTES`. Over the limit the stream is
 * paused for good and left unread (the journal knows a paused stream is not its to read).
 */
function readBytes(ctx: SandboxContext): Promise<Buffer> {
  const req = ctx.req;
  if (Number(ctx.get('Content-Length') || 0) > BODY_LIMIT_BYTES) {
    // Paused, not read: Node discards an unread body once the answer is sent, and the journal
    // leaves a paused stream alone (reading part of it would leave the connection unusable).
    req.pause();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(tooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    // `close` before `end`: the client went away mid-body; the answer goes nowhere, but it is an answer.
    const onAbort = () => {
      stop();
      reject(new ApiError('bad_request', { message: MESSAGES.bodyAborted }));
    };
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}

/** The body's JSON text after undoing its codings; '' when there is none. */
async function bodyText(ctx: SandboxContext): Promise<string> {
  if (!announcesBody(ctx)) return '';
  const received = await readBytes(ctx);
  if (received.length === 0) return '';
  // Its last bytes arrived in this turn; decoding and parsing a large body (a few ms a megabyte)
  // waits for the next, so another tenant's request that arrived meanwhile is not kept behind both.
  // (Decoding each chunk as it arrives instead, to save the whole-body Buffer, raised the peak RSS
  // of a flood by ~15 MiB, side by side: the text's pieces outlived the young generation.)
  if (received.length > LARGE_BODY_BYTES) await yieldTurn();
  const codings = contentCodings(ctx.get('Content-Encoding') || undefined);
  if (!ctx.is('application/json', '+json')) throw new ApiError('bad_request', { message: MESSAGES.bodyNotJson });
  const decoded = await decodeContent(received, codings, BODY_LIMIT_BYTES, BODY_LIMIT);
  // JSON is UTF-8 (RFC 8259 §8.1), which may start with a byte order mark that JSON.parse refuses.
  const text = decoded.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', { message: MESSAGES.bodyMalformed });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError('bad_request', { message: MESSAGES.bodyNotObject });
  // 1 MiB of brackets nests ~500k deep; recursive code further on (canonical JSON for
  // idempotency, metadata merging) must never see that.
  if (nestingDepth(body) > MAX_BODY_DEPTH) throw new ApiError('bad_request', { message: MESSAGES.bodyTooDeep(MAX_BODY_DEPTH) });
  return body as Record<string, unknown>;
}

/**
 * Sets `ctx.request.body` (`{}` when there is no body) and `ctx.request.rawBody` (the decoded text,
 * left undefined when there is no body: the journal and the required-body check read it so).
 */
export function jsonBody() {
  return async function jsonBodyMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    const request = ctx.request as { body?: unknown; rawBody?: string };
    const text = await bodyText(ctx);
    // Whitespace alone is not JSON, but it carries nothing either: read it as the empty body it is.
    if (text.trim() === '') {
      request.body = {};
    } else {
      request.body = parseObject(text);
      request.rawBody = text;
      // Decoding and parsing a large body took this turn; validating it and running the operation
      // (which weighs what it stores) take the next.
      if (text.length > LARGE_BODY_BYTES) await yieldTurn();
    }
    await next();
  };
}
