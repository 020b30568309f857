/**
 * Records every request under the API prefix in the sandbox's journal (contract §3.4), errors
 * included. It wraps the error envelope, so it sees the status actually sent; admin calls and
 * `/openapi.json` are never recorded.
 */
import { BODY_LIMIT_BYTES } from '../protocol/body-limit.js';
import type { RequestJournal } from '../protocol/request-journal.js';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { isUnder } from './path-prefix.js';
import { answeredNothing } from './faults.js';
import { replyStatus } from './reply.js';
import { replyText } from './wire.js';

/** Bodies the journal reads itself are capped like parsed ones (1 MiB): past it, not kept. */
const MAX_KEPT_BODY_BYTES = BODY_LIMIT_BYTES;

/**
 * The body text the client got (contract §4.4): the string the writer sends, serialized once and
 * shared (`replyText` memoizes it on the reply), so keeping it costs a reference; the journal keeps
 * it whole or its head (`journalBodyLimit`). Undefined when the answer had none (204, HEAD). A fault
 * that lost the answer after the operation keeps the answer that was lost, as `status` does.
 */
export function responseText(ctx: SandboxContext): string | undefined {
  const answer = ctx.state.reply;
  return answer ? (ctx.method === 'HEAD' ? undefined : replyText(answer)) : typeof ctx.body === 'string' ? ctx.body : undefined;
}

/**
 * Members of an operation's answer that are secrets: spec §2.2, a key's `token` is returned once and
 * never again, so the journal (and the dashboard, which shows it) keeps only its last four
 * characters, as `…abcd`. The client's own idempotent retry still gets the answer whole: that is
 * replayed from the idempotency store, never from the journal.
 */
const SECRET_MEMBERS: Readonly<Record<string, readonly string[]>> = Object.assign(
  Object.create(null) as Record<string, readonly string[]>,
  {
    createApiKey: ['token'],
  },
);

/** How a secret shows in the journal: `…` and its last four characters (spec §2.2's `last4`). */
export function redactedSecret(secret: string): string {
  return `…${secret.slice(-4)}`;
}

/** The answer text with the operation's secret members redacted; the text itself when it has none. */
export function withoutSecrets(operationId: string | undefined, text: string | undefined): string | undefined {
  const members = operationId === undefined ? undefined : SECRET_MEMBERS[operationId];
  if (members === undefined || text === undefined) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return text;
  const record = body as Record<string, unknown>;
  for (const member of members) {
    const value = record[member];
    if (typeof value === 'string') record[member] = redactedSecret(value);
  }
  return JSON.stringify(record);
}

/**
 * A JSON body nobody read: the request was answered before its body was parsed (a scenario's 500,
 * a 401, a 429). Read here, once the answer is decided and without delaying it, so the journal
 * still shows what was sent.
 */
function hasUnreadBody(ctx: SandboxContext): boolean {
  const req = ctx.req;
  const { 'content-length': length, 'transfer-encoding': encoding } = req.headers;
  const hasBody = Number(length || 0) > 0 || (encoding !== undefined && encoding !== '');
  // Only a stream nobody has touched: a parser that gave up (a body over the limit) paused it for good.
  const untouched = req.readableFlowing === null && !req.readableEnded && !req.destroyed;
  return hasBody && untouched && Boolean(ctx.is('application/json', '+json'));
}

/** The late read of a request's body, shared by whoever asks (the journal, the traffic watchers): the stream is read once. */
const lateReads = new WeakMap<object, Promise<string | undefined>>();

/** Whether the body was left unread by the answer (its late read may have begun already). */
export function bodyLeftUnread(ctx: SandboxContext): boolean {
  return lateReads.has(ctx.req) || hasUnreadBody(ctx);
}

export function bodyReadLate(ctx: SandboxContext): Promise<string | undefined> {
  let read = lateReads.get(ctx.req);
  if (!read) lateReads.set(ctx.req, (read = readUnreadBody(ctx)));
  return read;
}

function readUnreadBody(ctx: SandboxContext): Promise<string | undefined> {
  const req = ctx.req;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = req.socket;
    const finish = (text: string | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError);
      socket.off('close', onError);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_KEPT_BODY_BYTES) finish(undefined);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString('utf8'));
    const onError = () => finish(undefined);
    // `close` without `end`: the client went away mid-body. Once the answer has left, Node no longer
    // closes the request when its connection closes: listen to the connection too.
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError);
    socket.once('close', onError);
  });
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Bodies being read for entries whose answer has already left, per journal. Listing the journal
 * waits for them, so a client that got its answer and then reads the journal finds its request with
 * its body; the wait is bounded, so a client that never finishes its body cannot stall the admin API
 * (its entry then shows up when the body arrives or the connection closes).
 */
const arriving = new WeakMap<RequestJournal, Set<Promise<void>>>();

/** Longest a journal listing waits for bodies still arriving (real time: bytes on the wire, not state). */
export const BODY_ARRIVAL_WAIT_MS = 1000;

export async function bodiesArrived(journal: RequestJournal): Promise<void> {
  const reads = arriving.get(journal);
  if (!reads || reads.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, BODY_ARRIVAL_WAIT_MS)));
  await Promise.race([Promise.all(reads), bound]);
  clearTimeout(timer);
}

function finishWhenBodyArrives(ctx: SandboxContext, journal: RequestJournal, finish: (raw: string | undefined) => void): void {
  let reads = arriving.get(journal);
  if (!reads) arriving.set(journal, (reads = new Set()));
  const read = bodyReadLate(ctx).then(finish);
  reads.add(read);
  void read.finally(() => reads.delete(read));
}

export function journal(prefix: string): SandboxMiddleware {
  return function journalMiddleware(ctx, next) {
    if (!isUnder(ctx.path, prefix) || ctx.state.world.journal.capacity === 0) return next();
    return record(ctx, next);
  };
}

async function record(ctx: SandboxContext, next: Next): Promise<void> {
  const { journal, clock } = ctx.state.world;
  const ticket = journal.arrive({
    request_id: ctx.state.requestId,
    method: ctx.method,
    path: ctx.path,
    querystring: ctx.querystring,
    at: clock.now(),
    // Node's own list, kept by reference: no copy on the request path (contract §5.3).
    headers: ctx.req.rawHeaders,
  });
  const started = performance.now();
  try {
    await next();
  } finally {
    const { caller, operation, scenarios, idempotentReplayed, fault } = ctx.state;
    const known = caller?.kind === 'api_key';
    const outcome = {
      // A fault after the operation keeps the status of the answer it lost; one before it sent none.
      status: answeredNothing(fault) ? null : replyStatus(ctx),
      fault: fault?.type ?? null,
      account_id: known ? caller.account.id : null,
      api_key_id: known ? caller.key.id : null,
      operation_id: operation?.operationId ?? null,
      idempotent_replayed: idempotentReplayed === true,
      scenario_ids: scenarios ? scenarios.scenarioIds() : NONE,
      // The text as sent, not the parsed body: validation fills defaults into that one.
      raw_body: (ctx.request as { rawBody?: string }).rawBody,
      // Known once the caller is: a request of an account with its own clock is stamped on that clock.
      at: ctx.state.arrivedAt,
      response_text: withoutSecrets(operation?.operationId, responseText(ctx)),
      // Answers the sandbox writes are JSON; a text the Koa way (none under /v1 today) is kept as text.
      response_json: ctx.state.reply !== undefined,
      // The writer's list by reference: the framing headers it adds when writing show up in it.
      response_headers: ctx.state.headers.flat,
      duration_ms: performance.now() - started,
    };
    // The account was reset or deleted while this request ran (contract §4.1): no entry of it stays.
    const forgotten = known && ctx.state.world.store.forAccount(caller.account.id) !== caller.account;
    if (forgotten) {
      // Its place stays unanswered, so it is never listed.
    } else if (outcome.raw_body === undefined && hasUnreadBody(ctx)) {
      // Answered before its body was read (a 401, a 429): the answer leaves now, and the entry is
      // finished once the body has arrived, never holding the answer back.
      finishWhenBodyArrives(ctx, journal, (raw) => journal.finish(ticket, { ...outcome, raw_body: raw }));
    } else {
      journal.finish(ticket, outcome);
    }
  }
}
