/**
 * Bounded work per turn under a flood of megabyte bodies (README "Tenants": no request runs more
 * than ~50 ms without yielding; work for one tenant never delays another's request by more than one
 * step). What a 1 MB body costs is spread over several turns of the event loop: parsing it, hashing
 * it for its Idempotency-Key, running the operation (which weighs what it stores), serializing the
 * answer, and writing it, each in a turn of its own; and the admin answers a dashboard polls after
 * such a flood (a journal page, the account's records) leave in pieces. Held as turn counts, never
 * as times: a counter advanced by setImmediate tells the turns apart.
 */
import { createHash } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_PIECE_CHARS } from '../../src/http/reply.js';
import { hostilePatchBody } from '../../bench/hostile.js';
import { RequestJournal, UnknownJournalCursor, type JournalFilter } from '../../src/protocol/request-journal.js';
import { harLog, harLogInSlices } from '../../src/admin/har-log.js';
import { journalOutcome } from '../support/protocol.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { TurnCounter } from '../support/turns.js';

/** Longer than any string a small request makes: only the megabyte body and its echoes are this long. */
const LONG = 100_000;

const loop = new TurnCounter();

afterEach(() => {
  loop.stop();
  vi.restoreAllMocks();
});

/** Records the turn of every call of `object[name]` whose first argument is a long string (or holds one, for stringify). */
function turnsOf<T extends object>(object: T, name: keyof T & string, long: (arg: unknown) => boolean): number[] {
  const turns: number[] = [];
  const original = object[name] as (...args: unknown[]) => unknown;
  vi.spyOn(object, name as never).mockImplementation(function (this: unknown, ...args: unknown[]) {
    if (long(args[0])) turns.push(loop.turn);
    return original.apply(this, args);
  } as never);
  return turns;
}

/**
 * The turns in which an answer holding a long string was serialized: by JSON.stringify (the compiled
 * serializer's open members, and the check the suite runs), or joined from its parts by the large
 * answer writer (src/operations/large-json.ts), which writes long strings without JSON.stringify.
 */
function serializations(): number[] {
  const turns = turnsOf(JSON, 'stringify', holdsLongString);
  const join = Array.prototype.join;
  vi.spyOn(Array.prototype, 'join').mockImplementation(function (this: unknown[], ...args: [string?]) {
    if (this.some(longString)) turns.push(loop.turn);
    return join.apply(this, args);
  });
  return turns;
}

const longString = (arg: unknown): boolean => typeof arg === 'string' && arg.length > LONG;
/** An object whose JSON holds a long string one or two levels down (the answer's `metadata.note`), or the string itself. */
function holdsLongString(arg: unknown): boolean {
  if (longString(arg)) return true;
  if (arg === null || typeof arg !== 'object') return false;
  return Object.values(arg).some((v) => longString(v) || (v !== null && typeof v === 'object' && Object.values(v).some(longString)));
}

/** The body as a string, so that the client's own serialization is not among the calls counted. */
const BODY = hostilePatchBody().toString('utf8');

describe('a megabyte body is handled in several turns of the event loop, one step each', () => {
  it('parsing the body, running the operation and serializing its answer each take a turn of their own', async () => {
    const api = client(makeApp());
    const parses = turnsOf(JSON, 'parse', longString);
    const stringifies = serializations();
    loop.start();
    const res = await api
      .patch('/v1/email/inboxes/inbox_paid_support')
      .set(bearer(KEYS.paid))
      .set('content-type', 'application/json')
      .send(BODY);
    expect(res.status).toBe(200);
    const parsed = parses[0]!;
    // The answer's serialization: the first long stringify after the body's parse (the client's parse of the answer comes later).
    const answered = Math.min(...stringifies.filter((at) => at >= parsed));
    expect(Number.isFinite(answered)).toBe(true);
    // At least one turn between them: the operation's.
    expect(answered - parsed).toBeGreaterThanOrEqual(2);
  });

  it("with an Idempotency-Key, hashing the body takes a turn between the parse's and the operation's", async () => {
    const api = client(makeApp());
    const parses = turnsOf(JSON, 'parse', longString);
    const stringifies = serializations();
    const hash = Object.getPrototypeOf(createHash('sha256')) as { update(data: unknown): unknown };
    const hashed = turnsOf(hash, 'update', longString);
    loop.start();
    const send = () =>
      api
        .patch('/v1/email/inboxes/inbox_paid_support')
        .set(bearer(KEYS.paid))
        .set('Idempotency-Key', 'flood-1')
        .set('content-type', 'application/json')
        .send(BODY);
    const first = await send();
    expect(first.status).toBe(200);
    const parsed = parses[0]!;
    const digest = hashed.find((at) => at >= parsed)!;
    const answered = Math.min(...stringifies.filter((at) => at >= parsed));
    expect(digest).toBeGreaterThan(parsed);
    expect(answered - digest).toBeGreaterThanOrEqual(2);
    // Remembered as answered: the retry replays the same bytes.
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });
});

describe('admin answers over 256 KiB leave in pieces, each in a turn of its own', () => {
  /** Every string written to a response, with the turn it was written in. */
  function spyWrites(): Array<{ turn: number; chars: number }> {
    const writes: Array<{ turn: number; chars: number }> = [];
    for (const name of ['write', 'end'] as const) {
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const original = ServerResponse.prototype[name] as (this: ServerResponse, ...args: unknown[]) => unknown;
      vi.spyOn(ServerResponse.prototype, name).mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
        if (typeof args[0] === 'string') writes.push({ turn: loop.turn, chars: args[0].length });
        return original.apply(this, args) as never;
      });
    }
    return writes;
  }

  async function flooded() {
    const api = client(makeApp());
    for (let i = 0; i < 3; i++) {
      const res = await api
        .patch('/v1/email/inboxes/inbox_paid_support')
        .set(bearer(KEYS.paid))
        .set('content-type', 'application/json')
        .send(BODY);
      expect(res.status).toBe(200);
    }
    return api;
  }

  for (const path of ['/__admin/requests?limit=200', `/__admin/accounts/${ACCOUNTS.paid}`]) {
    it(`GET ${path.split('?')[0]} after 1 MB PATCHes: byte for byte, with its Content-Length`, async () => {
      const api = await flooded();
      const writes = spyWrites();
      loop.start();
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['request-id']).toMatch(/^req_/);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.text.length).toBeGreaterThan(ANSWER_PIECE_CHARS);
      expect(() => JSON.parse(res.text) as unknown).not.toThrow();
      expect(writes.length).toBeGreaterThanOrEqual(2);
      expect(writes.reduce((sum, w) => sum + w.chars, 0)).toBe(res.text.length);
      for (const w of writes) expect(w.chars).toBeLessThanOrEqual(ANSWER_PIECE_CHARS);
      expect(new Set(writes.map((w) => w.turn)).size).toBe(writes.length);
    });
  }
});

/**
 * A journal of `count` answered PATCHes (request ids in arrival order), entry `n` of the account
 * and with the body padding `entry(n)` says.
 */
function journalOf(count: number, entry: (n: number) => { account: string; pad: number }): RequestJournal {
  const ring = new RequestJournal(100);
  for (let n = 1; n <= count; n++) {
    const ticket = ring.arrive({
      request_id: `req_${String(n).padStart(12, '0')}`,
      method: 'PATCH',
      path: '/v1/x',
      querystring: '',
      at: n,
    });
    const { account, pad } = entry(n);
    ring.finish(ticket, journalOutcome({ account_id: account, raw_body: JSON.stringify({ n, pad: 'y'.repeat(pad) }) }));
  }
  return ring;
}

/** acct_a and acct_b in turn, about 60 KiB of body each. */
const alternating = (n: number) => ({ account: n % 2 ? 'acct_a' : 'acct_b', pad: 60 * 1024 });

describe('a journal listing page is built in slices, a turn each (contract §3.4)', () => {
  it('pauses after each slice and lists exactly what the one-turn page lists, whichever cursor', async () => {
    const ring = journalOf(30, alternating);
    const filters: JournalFilter[] = [
      { limit: 200 },
      { limit: 7 },
      { limit: 200, account_id: 'acct_a' },
      { limit: 5, starting_after: 'req_000000000020' },
      { limit: 5, ending_before: 'req_000000000010' },
      { limit: 200, ending_before: 'req_000000000010' },
    ];
    for (const filter of filters) {
      let pauses = 0;
      const sliced = await ring.listPageInSlices(filter, 1024 * 1024, () => ((pauses += 1), Promise.resolve()), 256 * 1024);
      const whole = ring.listPage(filter, 1024 * 1024);
      expect(sliced.json).toEqual(whole.json);
      expect(sliced.has_more).toBe(whole.has_more);
      // A pause once a slice's worth is listed (an entry of ~60 KiB may end past it), never more often.
      const bytes = sliced.json.reduce((sum, json) => sum + Buffer.byteLength(json) + 1, 0);
      const slice = 256 * 1024;
      const entry = 62 * 1024;
      expect(pauses).toBeLessThanOrEqual(Math.floor(bytes / slice));
      expect(pauses).toBeGreaterThanOrEqual(Math.floor((bytes - entry) / (slice + entry)));
      if (bytes > 2 * slice) expect(pauses).toBeGreaterThanOrEqual(2);
    }
  });

  it('leaves out an entry that left the journal during a pause (its account reset), and refuses an unknown cursor before any', async () => {
    const ring = journalOf(20, alternating);
    let pauses = 0;
    const page = await ring.listPageInSlices(
      { limit: 200 },
      4 * 1024 * 1024,
      () => {
        if ((pauses += 1) === 1) ring.forget('acct_a');
        return Promise.resolve();
      },
      256 * 1024,
    );
    const ids = page.data.map((entry) => entry.request_id);
    // The first slice was listed before the reset; after it, acct_b's entries only.
    expect(ids.slice(0, 5)).toEqual([20, 19, 18, 17, 16].map((n) => `req_${String(n).padStart(12, '0')}`));
    expect(ids.slice(5).every((id) => Number(id.slice(4)) % 2 === 0)).toBe(true);
    expect(ids).toHaveLength(5 + 7);
    await expect(
      ring.listPageInSlices({ limit: 5, starting_after: 'req_x' }, 1024, () => Promise.reject(new Error('paused')), 1),
    ).rejects.toThrow(UnknownJournalCursor);
  });
});

describe('the HAR export is built in slices, a turn each (contract §5.3)', () => {
  it('pauses after each slice and writes the very log the one-turn export writes', async () => {
    const ring = journalOf(30, alternating);
    for (const [filter, limit] of [
      [{}, 100],
      [{}, 12],
      [{ account_id: 'acct_b' }, 100],
    ] as const) {
      let pauses = 0;
      const sliced = await harLogInSlices(
        ring.exchangesAcrossTurns(filter, limit + 1),
        limit,
        '1.0.0',
        () => ((pauses += 1), Promise.resolve()),
        256 * 1024,
      );
      const whole = harLog(ring.exchanges(filter), limit, '1.0.0');
      expect(sliced.json).toBe(whole.json);
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(sliced.json) / (256 * 1024 + 62 * 1024)));
      expect(pauses).toBeGreaterThan(0);
    }
    // An entry whose account is reset during a pause is left out of what follows.
    let first = true;
    const log = await harLogInSlices(
      ring.exchangesAcrossTurns({}, 101),
      100,
      '1.0.0',
      () => {
        if (first) ring.forget('acct_a');
        first = false;
        return Promise.resolve();
      },
      256 * 1024,
    );
    const ids = (JSON.parse(log.json) as { log: { entries: Array<{ _request_id: string }> } }).log.entries.map((e) =>
      Number(e._request_id.slice(4)),
    );
    expect(ids.filter((n) => n % 2 === 1).length).toBeGreaterThan(0);
    expect(ids.filter((n) => n % 2 === 1).every((n) => n > 25)).toBe(true);
  });

  it('an export whose entries leave during a pause writes what a one-turn export asked at its end writes', async () => {
    // The newest five are 60 KiB each, so a pause comes after the sixth newest; the fifth oldest is
    // acct_a's, and acct_a (or an eviction) takes entries away during that pause. The export must
    // still hold the newest `limit` matches left and say that older ones were left out.
    const build = () => journalOf(10, (n) => ({ account: n === 5 || n === 4 ? 'acct_a' : 'acct_b', pad: n >= 6 ? 60 * 1024 : 10 }));
    const ids = (json: string): string[] =>
      (JSON.parse(json) as { log: { entries: Array<{ _request_id: string }> } }).log.entries.map((e) => e._request_id.slice(-2));
    for (const limit of [6, 5]) {
      const ring = build();
      let pauses = 0;
      const sliced = await harLogInSlices(
        ring.exchangesAcrossTurns({}, limit + 1),
        limit,
        '1.0.0',
        () => ((pauses += 1), ring.forget('acct_a'), Promise.resolve()),
        256 * 1024,
      );
      const whole = harLog(ring.exchanges({}), limit, '1.0.0');
      expect(pauses).toBeGreaterThan(0);
      expect(sliced.json).toBe(whole.json);
      expect(sliced.omitted).toBe(true);
      expect(sliced.count).toBe(limit);
      expect(ids(sliced.json)).not.toContain('05');
    }
  });
});
