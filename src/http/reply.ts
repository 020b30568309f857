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
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { HeldConnections, loseAnswer } from './faults.js';

/** Lower-cased header names, memoized: nearly every name is one of a dozen constants. */
const lowerCaseNames = new Map<string, string>();

function lowerCaseName(name: string): string {
  let lower = lowerCaseNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    // Bounded: names come from code and fixtures, but a scenario file could bring many.
    if (lowerCaseNames.size < 1024) lowerCaseNames.set(name, lower);
  }
  return lower;
}

/** Response headers in the order they were first set; setting a name again (any case) replaces it. */
export class HeaderList {
  /** name, value, name, value…: what `writeHead` takes. */
  readonly flat: string[] = [];
  /** The lower-cased name of each pair in `flat`, for case-insensitive lookups without lower-casing per call. */
  private readonly keys: string[] = [];

  set(name: string, value: string): void {
    const key = lowerCaseName(name);
    const at = this.keys.indexOf(key);
    if (at === -1) {
      this.keys.push(key);
      this.flat.push(name, value);
    } else {
      this.flat[2 * at + 1] = value;
    }
  }

  setAll(headers: Readonly<Record<string, string>>): void {
    for (const name in headers) this.set(name, headers[name]!);
  }

  get(name: string): string | undefined {
    const at = this.keys.indexOf(lowerCaseName(name));
    return at === -1 ? undefined : this.flat[2 * at + 1];
  }

  /** Lower-cased names, as Node reports response headers. */
  toObject(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (let i = 0; i < this.keys.length; i += 1) headers[this.keys[i]!] = this.flat[2 * i + 1]!;
    return headers;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Statuses that never carry a body (RFC 9110 §6.4.1, §15.4.5). */
const BODILESS = new Set([204, 205, 304]);

/** The answer of a request: a status and a JSON value, or a string already serialized. */
export interface Reply {
  status: number;
  body: unknown;
  /** `body` serialized already (an operation's compiled serializer); JSON.stringify otherwise. */
  text?: string;
}

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

/** The bytes of an answer's body, serialized once; undefined when it has none. */
export function replyText(answer: Reply): string | undefined {
  const { status, body } = answer;
  if (body === undefined || BODILESS.has(status)) return undefined;
  return (answer.text ??= typeof body === 'string' ? body : JSON.stringify(body));
}

/** The status this request answers with, whichever way it answers. */
export function replyStatus(ctx: SandboxContext): number {
  return ctx.state.reply?.status ?? ctx.status;
}

/** Writes the status line and headers of `answer` (Content-Type and Content-Length added); returns the body's text. */
export function writeHead(res: ServerResponse, answer: Reply, headers: HeaderList): string | undefined {
  const status = answer.status;
  const text = replyText(answer);
  if (text !== undefined) {
    headers.set('Content-Type', JSON_TYPE);
    headers.set('Content-Length', String(Buffer.byteLength(text)));
  } else if (!BODILESS.has(status)) {
    headers.set('Content-Length', '0');
  }
  res.writeHead(status, STATUS_CODES[status], headers.flat);
  return text;
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
      loseAnswer(ctx, fault, answer, headers, held, writeHead);
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
