/**
 * One lane per account for requests with a large body: reading, parsing, validating, remembering and
 * answering a body of up to 1 MiB takes one turn of the event loop of ~20 ms of CPU, and a tenant
 * sending several at once would queue them all ahead of every other tenant's request. In the lane an
 * account's large-body requests run one at a time, each after a yield, so another tenant waits for at
 * most one of them; small requests (and other accounts) never wait for the lane. The bodies waiting
 * are not read meanwhile: the sockets hold them (TCP backpressure), so the wait costs no memory.
 */
import type { SandboxContext, SandboxMiddleware } from './context.js';

/** Bodies announced above this size take the lane; below it, parsing costs well under a millisecond. */
export const LARGE_BODY_BYTES = 64 * 1024;

function isLarge(contentLength: string | undefined, transferEncoding: string | undefined): boolean {
  if (contentLength !== undefined && contentLength !== '') return Number(contentLength) > LARGE_BODY_BYTES;
  // A chunked body announces no size: it may be large.
  return transferEncoding !== undefined && transferEncoding !== '';
}

/** Resolves in the next turn of the event loop, after the I/O that is ready now (setImmediate). */
export const yieldTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Whether the request's body, as parsed, is large. Then each step that walks it whole takes a turn
 * of its own (decoding and parsing it; hashing it for its Idempotency-Key; running the operation,
 * which weighs what it stores; serializing the answer, which echoes it), so another tenant's request
 * waits for one step, a few ms a megabyte, not for all of them at once (~15 ms of CPU a megabyte
 * together on an idle machine, 50-100 ms on a busy one).
 */
export function hasLargeBody(ctx: SandboxContext): boolean {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  return raw !== undefined && raw.length > LARGE_BODY_BYTES;
}

export function largeBodyLane(): SandboxMiddleware {
  /** The tail of each account's lane; an account leaves the map when its lane empties. */
  const lanes = new Map<string, Promise<void>>();
  return async function largeBodyLaneMiddleware(ctx, next) {
    const { 'content-length': length, 'transfer-encoding': encoding } = ctx.req.headers;
    const caller = ctx.state.caller;
    if (caller?.kind !== 'api_key' || !isLarge(length, encoding)) return next();
    const accountId = caller.account.id;
    const before = lanes.get(accountId) ?? Promise.resolve();
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => (leave = resolve));
    const tail = before.then(() => mine);
    lanes.set(accountId, tail);
    try {
      await before;
      // Other tenants' requests that arrived meanwhile run first.
      await yieldTurn();
      await next();
    } finally {
      leave();
      if (lanes.get(accountId) === tail) lanes.delete(accountId);
    }
  };
}
