/**
 * `Idempotency-Key` on every write (spec §4 common rules, §7.3, §8). Runs after authentication and
 * request validation, around the handler:
 * - a key longer than 255 characters (or empty) is refused with 400 naming the header;
 * - keys are scoped to the account (every key of the account shares them) and remembered 24 hours
 *   of the virtual clock;
 * - the same key with the same payload (method, path, canonical query and body) replays the first
 *   response byte for byte, with a fresh Request-Id and `Idempotent-Replayed: true`;
 * - the same key with another payload is 400 `idempotency_key_reused`;
 * - a second request arriving while the first still runs waits for it, then replays it;
 * - what is kept: successes and the 4xx the handler decided (Stripe's rule: a result once the
 *   operation has started). Not kept, so a retry with the same key runs again: 5xx (spec §7.3.5:
 *   a 500 may be retried idempotently) and 401/403/429, which say nothing about the operation.
 *   Validation failures never get here (validateRequest runs first).
 * Reads (GET) ignore the header.
 */
import { createHash } from 'node:crypto';
import { ApiError, isApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { isWrite } from '../operations/types.js';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import type { IdempotencyLookup, StoredResponse } from '../protocol/idempotency-store.js';
import { requestTime } from './identify-caller.js';
import { hasLargeBody, yieldTurn } from './large-body-lane.js';
import { reply, stageHeader, stageHeaders } from './reply.js';
import { replyText } from './wire.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Statuses that describe the caller or its quota rather than the operation's outcome. */
const NOT_AN_OUTCOME = new Set([401, 403, 429]);

function isKept(status: number): boolean {
  return status < 500 && !NOT_AN_OUTCOME.has(status);
}

/** Receives canonical JSON piece by piece. */
type Sink = (piece: string) => void;

/**
 * What JSON.stringify would change in a string: a quote, a backslash, a control character, or a
 * surrogate (escaped when lone; a string with a pair goes through JSON.stringify too, which keeps it).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Strings longer than this are scanned and passed on as they are rather than copied by JSON.stringify. */
const SCAN_STRINGS_ABOVE = 256;

/** Writes `value` as canonical JSON into `sink`: a long string that needs no escape is passed on itself, never copied. */
function writeCanonical(value: unknown, sink: Sink): void {
  if (value === undefined) return sink('null');
  if (typeof value === 'string' && value.length > SCAN_STRINGS_ABOVE && !NEEDS_ESCAPE.test(value)) {
    sink('"');
    sink(value);
    return sink('"');
  }
  if (value === null || typeof value !== 'object') return sink(JSON.stringify(value));
  if (Array.isArray(value)) {
    sink('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) sink(',');
      writeCanonical(value[i], sink);
    }
    return sink(']');
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  sink('{');
  entries.forEach(([k, v], i) => {
    sink(i > 0 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
    writeCanonical(v, sink);
  });
  sink('}');
}

/** JSON with object keys sorted at every level: `{"b":1,"a":2}` and `{"a":2,"b":1}` are one payload. */
export function canonicalJson(value: unknown): string {
  const pieces: string[] = [];
  writeCanonical(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** Pieces of at least this many characters go to the hash by themselves; smaller ones are gathered first. */
const HASH_PIECE_CHARS = 8 * 1024;

/**
 * The payload (method, path, canonical query and body) as a SHA-256 digest: what is remembered per
 * key weighs 44 bytes, not the body a second time beside the answer (README "Idempotency"). The
 * canonical text is fed to the hash as it is written, never built whole: a megabyte body's long
 * strings reach the hash as the very strings the parser made (no escaped copy, no joined text).
 */
export function payloadDigest(method: string, path: string, query: unknown, body: unknown): string {
  const hash = createHash('sha256');
  let gathered = `${method}\n${path}\n`;
  const sink: Sink = (piece) => {
    if (piece.length < HASH_PIECE_CHARS) {
      gathered += piece;
      return;
    }
    hash.update(gathered);
    gathered = '';
    hash.update(piece);
  };
  writeCanonical(query, sink);
  sink('\n');
  writeCanonical(body, sink);
  return hash.update(gathered).digest('base64');
}

function fingerprintOf(ctx: SandboxContext): string {
  const input = ctx.state.input;
  return payloadDigest(ctx.method, ctx.path, input?.query ?? {}, input?.body);
}

function replay(ctx: SandboxContext, stored: StoredResponse): void {
  stageHeaders(ctx, stored.headers);
  stageHeader(ctx, REPLAYED_HEADER, 'true');
  reply(ctx, stored.status, stored.body);
  ctx.state.idempotentReplayed = true;
}

async function runAndRemember(ctx: SandboxContext, next: Next, lookup: Extract<IdempotencyLookup, { kind: 'new' }>): Promise<void> {
  try {
    await next();
  } catch (error) {
    // Unknown errors become a 500 in the envelope: not kept, like any 5xx.
    const kept = isApiError(error) && isKept(error.status);
    lookup.finish(kept ? { status: error.status, body: JSON.stringify(error.toBody()), headers: { ...error.headers } } : undefined);
    throw error;
  }
  const answer = ctx.state.reply;
  if (!answer) throw new Error('idempotency must wrap a handler that replies');
  // Reset or deleted while it ran: nothing of it is remembered in the account's new state.
  if (!ctx.state.world.store.holds(ctx.state.store!)) return lookup.finish(undefined);
  lookup.finish(
    isKept(answer.status) ? { status: answer.status, body: answer.body === null ? undefined : replyText(answer), headers: {} } : undefined,
  );
}

const IDEMPOTENCY_KEY_FIELD = IDEMPOTENCY_KEY_HEADER.toLowerCase();

export function idempotency(): SandboxMiddleware {
  return function idempotencyMiddleware(ctx, next) {
    const operation = ctx.state.operation;
    const key = ctx.headers[IDEMPOTENCY_KEY_FIELD];
    if (!operation || !isWrite(operation) || key === undefined) return next();
    return idempotent(ctx, next, key);
  };
}

async function idempotent(ctx: SandboxContext, next: Next, key: string | string[]): Promise<void> {
  // Node joins a repeated header into one string; it is judged as sent.
  const value = Array.isArray(key) ? key.join(', ') : key;
  if (value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError('bad_request', {
      param: IDEMPOTENCY_KEY_HEADER,
      message: MESSAGES.idempotencyKeyLength(MAX_IDEMPOTENCY_KEY_LENGTH, value.length),
    });
  }
  const store = ctx.state.store;
  if (!store) throw new Error('idempotency must run after authenticate');
  ctx.state.idempotencyKey = value;
  const fingerprint = fingerprintOf(ctx);
  // Hashing a large body took this turn; the operation runs in the next.
  if (hasLargeBody(ctx)) await yieldTurn();
  // The account was reset or deleted while the body arrived: the request finishes against the state
  // it started in (contract §4.1), and its key is not remembered in the account that replaced it.
  if (!ctx.state.world.store.holds(store)) {
    await next();
    return;
  }
  for (;;) {
    const { idempotency } = ctx.state.world;
    // Remembered for 24 hours of the account's clock (contract §4.1).
    const lookup = idempotency.begin(store.id, value, fingerprint, requestTime(ctx).clock.now());
    switch (lookup.kind) {
      case 'wait':
        // The first request's outcome decides: replay it, or (if it was not kept) run this one.
        await lookup.settled;
        continue;
      case 'mismatch':
        throw new ApiError('idempotency_key_reused', { param: IDEMPOTENCY_KEY_HEADER, message: MESSAGES.idempotencyKeyReused(value) });
      case 'replay':
        replay(ctx, lookup.response);
        return;
      case 'evicted':
        // Spec §8 within a byte budget: running it again could do the write twice; say so instead.
        throw new ApiError('idempotency_key_evicted', { param: IDEMPOTENCY_KEY_HEADER, message: MESSAGES.idempotencyKeyEvicted(value) });
      case 'new':
        await runAndRemember(ctx, next, lookup);
        return;
    }
  }
}
