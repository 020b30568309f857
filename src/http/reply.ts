/**
 * How answers leave the app. Middlewares stage headers (`stageHeader`) and the answer (`reply`) on
 * `ctx.state`; the outermost `sendReply` writes them with one `writeHead(status, headers)` and one
 * `end(json)`. Koa's own respond() stores every header on the Node response first (validated,
 * lower-cased, kept in an object) and serializes it again on write; with the dozen headers each /v1
 * answer carries, that was about a fifth of a request's cost.
 *
 * Routes that answer the Koa way, setting `ctx.body` (the admin API, `/openapi.json`), still go
 * through Koa: the staged headers are copied onto the response before Koa writes it.
 */
import type { ServerResponse } from 'node:http';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { HeldConnections, loseAnswer } from './faults.js';
import { yieldTurn } from './large-body-lane.js';
import { HeaderList, writeHead, type Reply } from './wire.js';

export function stageHeader(ctx: SandboxContext, name: string, value: string): void {
  ctx.state.headers.set(name, value);
}

export function stageHeaders(ctx: SandboxContext, headers: Readonly<Record<string, string>>): void {
  ctx.state.headers.setAll(headers);
}

/** Answers the request (a later `reply` replaces an earlier one: an error after a success). */
export function reply(ctx: SandboxContext, status: number, body: unknown, text?: string): void {
  ctx.state.reply = text === undefined ? { status, body } : { status, body, text };
}

/** The status this request answers with, whichever way it answers. */
export function replyStatus(ctx: SandboxContext): number {
  return ctx.state.reply?.status ?? ctx.status;
}

/**
 * Answers longer than this leave in pieces of at most this many characters, each in a turn of the
 * event loop of its own: encoding and copying a megabyte answer to the socket took ~5 ms in one
 * turn, which every other tenant's request waited for. Shorter ones (nearly all) leave in one call.
 */
export const ANSWER_PIECE_CHARS = 256 * 1024;

/** Whether the whole answer was handed to the socket (false: the client went away between pieces). */
async function write(res: ServerResponse, method: string, answer: Reply, headers: HeaderList): Promise<boolean> {
  if (answer.text !== undefined && answer.text.length > ANSWER_PIECE_CHARS) {
    // Measuring a long answer's UTF-8 length for its head (flattening it first when it was built
    // by joining, as a journal page is) walks it whole: in a turn after the one that made it.
    await yieldTurn();
    if (res.destroyed) return false;
  }
  const text = writeHead(res, answer, headers);
  // HEAD gets the headers of the GET, Content-Length included, and no body (RFC 9110 §9.3.2).
  if (method === 'HEAD' || text === undefined) res.end();
  else if (text.length <= ANSWER_PIECE_CHARS) res.end(text);
  else return writeInPieces(res, text);
  return true;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

async function writeInPieces(res: ServerResponse, text: string): Promise<boolean> {
  for (let at = 0; at < text.length;) {
    // The turn that made the answer was long enough: each piece waits for the I/O ready before it.
    await yieldTurn();
    if (res.destroyed) return false;
    let end = Math.min(text.length, at + ANSWER_PIECE_CHARS);
    // Never split a surrogate pair: each half alone would be encoded as U+FFFD.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    // Slices of the one flat text, each encoded as it is written (encoding the whole answer into a
    // Buffer first cost a megabyte more, held until the collector freed it).
    if (end === text.length) res.end(text.slice(at));
    else res.write(text.slice(at, end));
    at = end;
  }
  return true;
}

/**
 * What the writer calls around each request so the world's modules learn how it finished
 * (src/http/request-finished.ts): `arrived` before the rest of the stack runs gives a watch
 * (undefined for a request nobody watches: outside the prefix, or no module listening), whose
 * `finished` is called once the answer was written, lost or left. Called from the writer's own
 * frame rather than a middleware of its own: one layer less of dispatch and promise per request.
 */
export interface FinishWatcher {
  arrived(ctx: SandboxContext): { finished(): void } | undefined;
}

/**
 * The writer: stages the header list, runs the rest of the stack, then writes its answer in one go
 * (or loses it to a fault). `held`: the app's connections held by `no-response` faults
 * (src/http/faults.ts); `watcher`: what it tells how each request finished.
 */
export function sendReply(held: HeldConnections = new HeldConnections(), watcher?: FinishWatcher): SandboxMiddleware {
  return async function sendReplyMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    const headers = new HeaderList();
    ctx.state.headers = headers;
    const watch = watcher?.arrived(ctx);
    try {
      await next();
      const answer = ctx.state.reply;
      const fault = ctx.state.fault;
      if (fault) {
        // A transport fault: the answer (if the operation ran, it is remembered already) is lost here.
        ctx.respond = false;
        loseAnswer(ctx, fault, answer, headers, held);
        return;
      }
      if (answer === undefined) {
        // Answered the Koa way (ctx.body): Koa responds, with the staged headers.
        for (let i = 0; i < headers.flat.length; i += 2) ctx.set(headers.flat[i]!, headers.flat[i + 1]!);
        return;
      }
      ctx.respond = false;
      // A client that went away gets nothing; the answer still counts as given (journal, idempotency).
      if (ctx.res.headersSent || !ctx.res.writable) return;
      if (await write(ctx.res, ctx.method, answer, headers)) ctx.state.written = true;
    } finally {
      watch?.finished();
    }
  };
}
