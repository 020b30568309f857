/**
 * The sandbox's memory has structural bounds, whatever
 * the load and however long it runs under a frozen clock. Counts, never timings (the measured memory
 * of these workloads is `npm run bench -- --only memory`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEYS_PER_ACCOUNT, IdempotencyStore } from '../../src/protocol/idempotency-store.js';
import { RequestJournal } from '../../src/protocol/request-journal.js';
import { MAX_JOURNAL_SIZE } from '../../src/config/options.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { Activation } from '../../src/scenarios/engine.js';
import { ACCOUNTS, FROZEN_AT, makeApp } from '../support/harness.js';
import { journalOutcome } from '../support/protocol.js';

const T0 = Date.parse(FROZEN_AT);

/** One write remembered under `key`, finished with a 201. */
function remember(store: IdempotencyStore, scope: string, key: string, now = T0): void {
  const lookup = store.begin(scope, key, 'fp', now);
  if (lookup.kind !== 'new') throw new Error(`expected a new entry for ${key}, got ${lookup.kind}`);
  lookup.finish({ status: 201, body: `{"key":"${key}"}`, headers: {} });
}

describe('the idempotency store is capped per account', () => {
  it(`keeps at most the newest ${IDEMPOTENCY_KEYS_PER_ACCOUNT.toLocaleString('en-US')} keys of an account under a frozen clock, evicting the oldest first`, () => {
    const store = new IdempotencyStore();
    const writes = IDEMPOTENCY_KEYS_PER_ACCOUNT + 2_500;
    for (let i = 0; i < writes; i++) {
      remember(store, 'acct_a', `k${i}`);
      if (i % 500 === 0) expect(store.size).toBeLessThanOrEqual(IDEMPOTENCY_KEYS_PER_ACCOUNT);
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

  it('spec §8 with the cap: a key whose first request is still running is never the one evicted, so its retry waits instead of running again', () => {
    const store = new IdempotencyStore();
    const running = store.begin('acct_a', 'running', 'fp', T0);
    expect(running.kind).toBe('new');
    for (let i = 0; i < IDEMPOTENCY_KEYS_PER_ACCOUNT + 10; i++) remember(store, 'acct_a', `k${i}`);
    expect(store.size).toBe(IDEMPOTENCY_KEYS_PER_ACCOUNT);
    expect(store.begin('acct_a', 'running', 'fp', T0).kind).toBe('wait');
    // The oldest completed keys went instead: 10,010 written beside the running one, 9,999 kept.
    expect(store.begin('acct_a', 'k11', 'fp', T0).kind).toBe('replay');
    expect(store.begin('acct_a', 'k10', 'fp', T0).kind).toBe('new');
  });

  it('still forgets a key 24 hours after its first use (spec §8), per account', () => {
    const store = new IdempotencyStore();
    remember(store, 'acct_a', 'old');
    remember(store, 'acct_b', 'other');
    expect(store.begin('acct_a', 'old', 'fp', T0 + 24 * 3600_000).kind).toBe('new');
    expect(store.begin('acct_b', 'other', 'fp', T0 + 24 * 3600_000 - 1).kind).toBe('replay');
  });
});

describe('the journal allocates as entries arrive; reset and clear are O(1)', () => {
  const outcome = journalOutcome();
  const arrive = (ring: RequestJournal, n: number) =>
    ring.arrive({ request_id: `req_${n}`, method: 'GET', path: '/v1/status', querystring: '', at: T0 });

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
      if (n % 250 === 0) expect(ring.allocated).toBeLessThanOrEqual(1_000);
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

describe('scenario activations are indexed by scope and collected when exhausted', () => {
  const getStatus = OPERATIONS.find((op) => op.operationId === 'getStatus')!;
  const freeRequest = { operation: getStatus, accountId: ACCOUNTS.free, apiKeyId: 'key_free_default' };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("a request looks only at the activations that can match it, not at other accounts', keys' or operations'", () => {
    const engine = makeApp().sandbox.world.scenarios;
    for (let i = 0; i < 2_000; i++) {
      engine.activate({ name: 'server-error', account_id: ACCOUNTS.paid });
      engine.activate({ name: 'server-error', api_key_id: 'key_paid_default' });
      engine.activate({ name: 'server-error', operation_id: 'listApiKeys' });
    }
    const mine = engine.activate({ name: 'server-error', account_id: ACCOUNTS.free });
    const scopeChecks = vi.spyOn(Activation.prototype, 'inScope');
    const request = engine.forRequest(freeRequest);
    expect(scopeChecks.mock.calls.length).toBeLessThanOrEqual(1);
    expect(request.plan(true).answer).toEqual({ error: { code: 'internal_error' } });
    expect(request.scenarioIds()).toEqual([mine.id]);
  });

  it('the newest activation in scope still acts first, whichever scope it was narrowed by', () => {
    const engine = makeApp().sandbox.world.scenarios;
    const global = engine.activate({ name: 'slow-responses', params: { delay_ms: 0 } });
    engine.activate({ name: 'server-error', account_id: ACCOUNTS.free });
    engine.activate({ name: 'rate-limited', api_key_id: 'key_free_default' });
    const byOperation = engine.activate({ name: 'server-error', operation_id: 'getStatus' });
    engine.activate({ name: 'keys-expired', account_id: ACCOUNTS.paid });
    const request = engine.forRequest(freeRequest);
    expect(request.plan(true)).toEqual({ delayMs: 0, answer: { error: { code: 'internal_error' } } });
    expect(request.scenarioIds()).toEqual([byOperation.id, global.id]);
    const keyScoped = engine.activate({ name: 'rate-limited', api_key_id: 'key_free_default' });
    const next = engine.forRequest(freeRequest);
    expect(next.plan(true).answer).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(next.scenarioIds()).toEqual([keyScoped.id, global.id]);
  });

  it('exhausted activations are gone: from the list, and from what later requests look at', () => {
    const engine = makeApp().sandbox.world.scenarios;
    for (let i = 0; i < 1_000; i++) engine.activate({ name: 'server-error', account_id: ACCOUNTS.free, times: 1 });
    for (let i = 0; i < 1_000; i++) expect(engine.forRequest(freeRequest).plan(true).answer).toBeDefined();
    expect(engine.list()).toEqual([]);
    expect(engine.hasActive()).toBe(false);
    const scopeChecks = vi.spyOn(Activation.prototype, 'inScope');
    expect(engine.forRequest(freeRequest).plan(true)).toEqual({});
    expect(scopeChecks).not.toHaveBeenCalled();
  });
});
