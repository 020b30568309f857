/**
 * Issue 13 items 14, 15, 16 and its "Done when": the sandbox's memory has structural bounds, whatever
 * the load and however long it runs under a frozen clock. Counts, never timings (the measured memory
 * of these workloads is `npm run bench -- --only memory`).
 */
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEYS_PER_ACCOUNT, IdempotencyStore } from '../src/http/idempotency-store.js';
import { RequestJournal, type JournalOutcome } from '../src/journal/request-journal.js';
import { MAX_JOURNAL_SIZE } from '../src/options.js';
import { FROZEN_AT } from './support/harness.js';

const T0 = Date.parse(FROZEN_AT);

/** One write remembered under `key`, finished with a 201. */
function remember(store: IdempotencyStore, scope: string, key: string, now = T0): void {
  const lookup = store.begin(scope, key, 'fp', now);
  if (lookup.kind !== 'new') throw new Error(`expected a new entry for ${key}, got ${lookup.kind}`);
  lookup.finish({ status: 201, body: `{"key":"${key}"}`, headers: {} });
}

describe('issue 13.14: the idempotency store is capped per account', () => {
  it(`keeps at most the newest ${IDEMPOTENCY_KEYS_PER_ACCOUNT.toLocaleString('en-US')} keys of an account under a frozen clock, evicting the oldest first`, () => {
    const store = new IdempotencyStore();
    const writes = IDEMPOTENCY_KEYS_PER_ACCOUNT + 2_500;
    for (let i = 0; i < writes; i++) {
      remember(store, 'acct_a', `k${i}`);
      expect(store.size).toBeLessThanOrEqual(IDEMPOTENCY_KEYS_PER_ACCOUNT);
    }
    expect(store.size).toBe(IDEMPOTENCY_KEYS_PER_ACCOUNT);
    // The newest are replayed; the oldest 2,500 were evicted, so their keys run again.
    expect(store.begin('acct_a', `k${writes - 1}`, 'fp', T0).kind).toBe('replay');
    expect(store.begin('acct_a', `k${writes - IDEMPOTENCY_KEYS_PER_ACCOUNT}`, 'fp', T0).kind).toBe('replay');
    expect(store.begin('acct_a', `k${writes - IDEMPOTENCY_KEYS_PER_ACCOUNT - 1}`, 'fp', T0).kind).toBe('new');
  });

  it("one account's writes never evict another account's keys", () => {
    const store = new IdempotencyStore();
    remember(store, 'acct_b', 'kept');
    for (let i = 0; i < IDEMPOTENCY_KEYS_PER_ACCOUNT + 10; i++) remember(store, 'acct_a', `k${i}`);
    expect(store.begin('acct_b', 'kept', 'fp', T0).kind).toBe('replay');
    expect(store.size).toBe(IDEMPOTENCY_KEYS_PER_ACCOUNT + 1);
  });

  it('still forgets a key 24 hours after its first use (spec §8), per account', () => {
    const store = new IdempotencyStore();
    remember(store, 'acct_a', 'old');
    remember(store, 'acct_b', 'other');
    expect(store.begin('acct_a', 'old', 'fp', T0 + 24 * 3600_000).kind).toBe('new');
    expect(store.begin('acct_b', 'other', 'fp', T0 + 24 * 3600_000 - 1).kind).toBe('replay');
  });
});

describe('issue 13.15: the journal allocates as entries arrive; reset and clear are O(1)', () => {
  const outcome: JournalOutcome = { status: 200, account_id: null, api_key_id: null, operation_id: null, idempotent_replayed: false, scenario_ids: [], raw_body: undefined };
  const arrive = (ring: RequestJournal, n: number) => ring.arrive({ request_id: `req_${n}`, method: 'GET', path: '/v1/status', querystring: '', at: T0 });

  it(`a journal of the maximum size (${MAX_JOURNAL_SIZE.toLocaleString('en-US')}) holds no place before its first request, and one per request after`, () => {
    const ring = new RequestJournal(MAX_JOURNAL_SIZE);
    expect(ring.allocated).toBe(0);
    for (let n = 1; n <= 1_000; n++) ring.finish(arrive(ring, n), outcome);
    expect(ring.allocated).toBe(1_000);
    expect(ring.list({ limit: 1 }).data.map((e) => e.request_id)).toEqual(['req_1000']);
  });

  it('never holds more places than its size, however many requests wrap it', () => {
    const ring = new RequestJournal(1_000);
    for (let n = 1; n <= 25_000; n++) {
      ring.finish(arrive(ring, n), outcome);
      expect(ring.allocated).toBeLessThanOrEqual(1_000);
    }
    expect(ring.allocated).toBe(1_000);
    expect(ring.list({ limit: 1000 }).data).toHaveLength(1_000);
  });

  it('clear drops every place (nothing kept to walk or overwrite) and counts what it dropped; requests in flight are not recorded', () => {
    const ring = new RequestJournal(10);
    for (let n = 1; n <= 14; n++) ring.finish(arrive(ring, n), outcome);
    const inFlight = arrive(ring, 15);
    expect(ring.clear()).toBe(9);
    expect(ring.allocated).toBe(0);
    ring.finish(inFlight, outcome);
    ring.finish(arrive(ring, 16), outcome);
    expect(ring.list({ limit: 100 }).data.map((e) => e.request_id)).toEqual(['req_16']);
    expect(ring.allocated).toBe(1);
  });
});
