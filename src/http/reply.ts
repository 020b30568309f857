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

function write(res: ServerResponse, method: string, answer: Reply, headers: HeaderList): void {
  const text = writeHead(res, answer, headers);
  // HEAD gets the headers of the GET, Content-Length included, and no body (RFC 9110 §9.3.2).
  if (method === 'HEAD' || text === undefined) res.end();
  else res.end(text);
}

/** `held`: the app's connections held by `no-response` faults (src/http/faults.ts). */
export function sendReply(held: HeldConnections = new HeldConnections()): SandboxMiddleware {
  return async function sendReplyMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    const headers = new HeaderList();
    ctx.state.headers = headers;
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
    write(ctx.res, ctx.method, answer, headers);
    ctx.state.written = true;
  };
}
