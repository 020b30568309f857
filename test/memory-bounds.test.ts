/**
 * Issue 13 items 14, 15, 16 and its "Done when": the sandbox's memory has structural bounds, whatever
 * the load and however long it runs under a frozen clock. Counts, never timings (the measured memory
 * of these workloads is `npm run bench -- --only memory`).
 */
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEYS_PER_ACCOUNT, IdempotencyStore } from '../src/http/idempotency-store.js';
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
