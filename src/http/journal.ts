/**
 * Records every request under the API prefix in the sandbox's journal (contract §3.4), errors
 * included. It wraps the error envelope, so it sees the status actually sent; admin calls and
 * `/openapi.json` are never recorded.
 */
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { isUnder } from './path-prefix.js';
import { replyStatus } from './reply.js';

/** Bodies the journal reads itself are capped like parsed ones (1 MiB). */
const MAX_UNREAD_BODY_BYTES = 1024 * 1024;

/**
 * A JSON body nobody read: the request was answered before its body was parsed (a scenario's 500,
 * a 401, a 429). Read here, once the answer is decided, so the journal still shows what was sent.
 */
function hasUnreadBody(ctx: SandboxContext): boolean {
  const req = ctx.req;
  const { 'content-length': length, 'transfer-encoding': encoding } = req.headers;
  const hasBody = Number(length || 0) > 0 || (encoding !== undefined && encoding !== '');
  // Only a stream nobody has touched: a parser that gave up (a body over the limit) paused it for good.
  const untouched = req.readableFlowing === null && !req.readableEnded && !req.destroyed;
  return hasBody && untouched && Boolean(ctx.is('application/json', '+json'));
}

function readUnreadBody(ctx: SandboxContext): Promise<string | undefined> {
  const req = ctx.req;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (text: string | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_UNREAD_BODY_BYTES) finish(undefined);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString('utf8'));
    const onError = () => finish(undefined);
    // `close` without `end`: the client went away mid-body.
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError);
  });
}

const NONE: readonly string[] = Object.freeze([]);

export function journal(prefix: string): SandboxMiddleware {
  return function journalMiddleware(ctx, next) {
    if (!isUnder(ctx.path, prefix) || ctx.sandbox.journal.capacity === 0) return next();
    return record(ctx, next);
  };
}

async function record(ctx: SandboxContext, next: Next): Promise<void> {
  // This boot's journal: a reset during the request leaves the request out of the new one.
  const journal = ctx.sandbox.journal;
  const ticket = journal.arrive({
    request_id: ctx.state.requestId,
    method: ctx.method,
    path: ctx.path,
    querystring: ctx.querystring,
    at: ctx.sandbox.clock.now(),
  });
  try {
    await next();
  } finally {
    const { caller, operation, scenarios, idempotentReplayed } = ctx.state;
    const known = caller?.kind === 'api_key';
    // The text as sent, not the parsed body: validation fills defaults into that one.
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? (hasUnreadBody(ctx) ? await readUnreadBody(ctx) : undefined);
    journal.finish(ticket, {
      status: replyStatus(ctx),
      account_id: known ? caller.account.id : null,
      api_key_id: known ? caller.key.id : null,
      operation_id: operation?.operationId ?? null,
      idempotent_replayed: idempotentReplayed === true,
      scenario_ids: scenarios ? scenarios.scenarioIds() : NONE,
      raw_body: raw,
    });
  }
}
