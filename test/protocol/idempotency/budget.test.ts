/**
 * Spec §8 within byte budgets: what the store remembers for `Idempotency-Key` is bounded in bytes
 * per account (`idempotencyBudget`) and for the whole sandbox (`idempotencyTotalBudget`), the
 * oldest stored answers dropped first. A key whose answer was dropped within its 24 hours is never
 * run a second time: its retry is refused, visibly (400 `idempotency_key_evicted`). Bytes are read
 * from the store's own accounting, never from RSS.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/errors/messages.js';
import { ConfigError } from '../../../src/errors/config-error.js';
import { parseCliSettings } from '../../../src/config/settings.js';
import { IDEMPOTENCY_TTL_MS, IdempotencyStore } from '../../../src/protocol/idempotency-store.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../../support/harness.js';
import { PINNED } from '../../support/resources.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const T0 = Date.parse(FROZEN_AT);
const INBOX = `/v1/email/inboxes/${PINNED.free.inbox}`;

type Api = ReturnType<typeof client>;

/** A keyed write of a chosen size: a PATCH whose metadata holds `bytes` characters, under `key`. */
function patch(api: Api, key: string, bytes: number, token: string = KEYS.free, inbox = INBOX, fill = 'x') {
  return api
    .patch(inbox)
    .set(bearer(token))
    .set('Idempotency-Key', key)
    .type('json')
    .send(JSON.stringify({ metadata: { note: fill.repeat(bytes) } }));
}

async function keyCount(api: Api, token: string = KEYS.free): Promise<number> {
  const res = await api.get('/v1/auth/keys?limit=100').set(bearer(token));
  return res.body.data.length;
}

/** One write remembered under `key` with an answer of `bytes` bytes. */
function remember(store: IdempotencyStore, scope: string, key: string, bytes: number, now = T0): void {
  const lookup = store.begin(scope, key, 'fp', now);
  if (lookup.kind !== 'new') throw new Error(`expected a new entry for ${key}, got ${lookup.kind}`);
  lookup.finish({ status: 200, body: `"${'x'.repeat(bytes - 2)}"`, headers: {} });
}

describe('spec §8: the answers remembered per account stay within idempotencyBudget', () => {
  it('spec §8: large PATCHes with distinct keys never take an account past its budget; the newest keys still replay', async () => {
    const app = makeApp({ journalSize: 0, idempotencyBudget: '64KiB' });
    const api = client(app);
    for (let i = 0; i < 30; i++) {
      const res = await patch(api, `k${i}`, 20_000);
      expect(res.status).toBe(200);
      expect(app.sandbox.world.idempotency.bytesOf(ACCOUNTS.free)).toBeLessThanOrEqual(64 * KIB);
    }
    const newest = await patch(api, 'k29', 20_000);
    expect([newest.status, newest.headers['idempotent-replayed']]).toEqual([200, 'true']);
  });

  it('spec §8: a retry of a key whose answer was dropped within its 24 hours is 400 idempotency_key_evicted and runs nothing', async () => {
    const app = makeApp({ journalSize: 0, idempotencyBudget: '64KiB' });
    const api = client(app);
    const first = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'mint').send({ name: 'ci' });
    expect(first.status).toBe(201);
    const keys = await keyCount(api);
    for (let i = 0; i < 10; i++) expect((await patch(api, `k${i}`, 20_000)).status).toBe(200);
    const retry = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'mint').send({ name: 'ci' });
    expectError(retry, 'idempotency_key_evicted', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyEvicted('mint') });
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyCount(api)).toBe(keys);
    // Another payload under that key is still the reuse error (spec §7.3.3): the key stays taken.
    const other = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'mint').send({ name: 'other' });
    expectError(other, 'idempotency_key_reused', { param: 'Idempotency-Key' });
  });

  it('spec §8: once its 24 hours are over, an evicted key is forgotten and runs as new', () => {
    const store = new IdempotencyStore({ budget: 4 * KIB });
    remember(store, 'acct', 'old', 3000);
    remember(store, 'acct', 'new', 3000);
    expect(store.begin('acct', 'old', 'fp', T0).kind).toBe('evicted');
    expect(store.begin('acct', 'old', 'fp', T0 + IDEMPOTENCY_TTL_MS).kind).toBe('new');
  });

  it('spec §8: an answer larger than the whole budget is not stored, and its retry is refused, not run again', () => {
    const store = new IdempotencyStore({ budget: 4 * KIB });
    remember(store, 'acct', 'huge', 10 * KIB);
    expect(store.bytesOf('acct')).toBeLessThanOrEqual(4 * KIB);
    expect(store.begin('acct', 'huge', 'fp', T0).kind).toBe('evicted');
  });

  it("spec §8: an answer larger than the whole budget drops none of the account's other answers", () => {
    const store = new IdempotencyStore({ budget: 16 * KIB });
    for (let i = 0; i < 3; i++) remember(store, 'acct', `k${i}`, 2 * KIB);
    remember(store, 'acct', 'huge', 20 * KIB);
    for (let i = 0; i < 3; i++) expect(store.begin('acct', `k${i}`, 'fp', T0).kind).toBe('replay');
    expect(store.begin('acct', 'huge', 'fp', T0).kind).toBe('evicted');
    expect(store.bytesOf('acct')).toBeLessThanOrEqual(16 * KIB);
  });

  it("spec §8: one account's budget never evicts another account's answers", () => {
    const store = new IdempotencyStore({ budget: 8 * KIB, totalBudget: MIB });
    remember(store, 'acct_b', 'kept', 1000);
    for (let i = 0; i < 50; i++) remember(store, 'acct_a', `k${i}`, 3000);
    expect(store.begin('acct_b', 'kept', 'fp', T0).kind).toBe('replay');
    expect(store.bytesOf('acct_a')).toBeLessThanOrEqual(8 * KIB);
  });

  it('spec §8: the payload is remembered by a digest, so a large body costs its answer only', async () => {
    const app = makeApp({ journalSize: 0 });
    const api = client(app);
    const res = await patch(api, 'big', 200_000);
    expect(res.status).toBe(200);
    const bytes = app.sandbox.world.idempotency.bytesOf(ACCOUNTS.free);
    expect(bytes).toBeGreaterThanOrEqual(Buffer.byteLength(res.text));
    expect(bytes).toBeLessThan(Buffer.byteLength(res.text) + 2 * KIB);
  });
});

describe('spec §8: expired answers are let go without waiting for their account', () => {
  it("spec §8: after 24 hours, another tenant's writes free an idle account's expired answers, in bounded steps", () => {
    const store = new IdempotencyStore({ nowOf: () => now });
    let now = T0;
    for (let i = 0; i < 200; i++) remember(store, 'acct_idle', `k${i}`, 5000);
    expect(store.bytesOf('acct_idle')).toBeGreaterThan(200 * 5000);
    now = T0 + IDEMPOTENCY_TTL_MS + 1;
    for (let i = 0; i < 20; i++) remember(store, 'acct_busy', `k${i}`, 10, now);
    expect(store.bytesOf('acct_idle')).toBe(0);
  });

  it('spec §8: the sandbox clock advanced 25 hours: the next keyed write of any account frees the others', async () => {
    const app = makeApp({ journalSize: 0 });
    const api = client(app);
    for (let i = 0; i < 5; i++) expect((await patch(api, `k${i}`, 20_000)).status).toBe(200);
    expect(app.sandbox.world.idempotency.bytesOf(ACCOUNTS.free)).toBeGreaterThan(100_000);
    expect((await api.post('/__admin/clock/advance').send({ seconds: 25 * 3600 })).status).toBe(200);
    const other = await api.post('/v1/auth/keys').set(bearer(KEYS.paid)).set('Idempotency-Key', 'p1').send({ name: 'x' });
    expect(other.status).toBe(201);
    expect(app.sandbox.world.idempotency.bytesOf(ACCOUNTS.free)).toBe(0);
  });
});

describe('spec §8: every account together stays within idempotencyTotalBudget', () => {
  it('spec §8: many tenants writing large answers never take the sandbox past its ceiling; the oldest answers go first', async () => {
    const app = makeApp({ journalSize: 0, idempotencyBudget: '64KiB', idempotencyTotalBudget: '256KiB' });
    const api = client(app);
    const tenants: Array<{ token: string; inbox: string }> = [];
    for (let i = 0; i < 30; i++) {
      const res = await api.post('/__admin/accounts').send({ plan: 'free' });
      expect(res.status).toBe(201);
      const token = res.body.api_key.token;
      const state = await api.get(`/__admin/accounts/${res.body.account.id}`);
      tenants.push({ token, inbox: `/v1/email/inboxes/${state.body.state.inboxes[0].id}` });
    }
    for (const { token, inbox } of tenants) {
      for (let k = 0; k < 3; k++) {
        expect((await patch(api, `k${k}`, 10_000, token, inbox)).status).toBe(200);
        expect(app.sandbox.world.idempotency.bytes).toBeLessThanOrEqual(256 * KIB);
      }
    }
    const last = tenants.at(-1)!;
    const newest = await patch(api, 'k2', 10_000, last.token, last.inbox);
    expect(newest.headers['idempotent-replayed']).toBe('true');
    const first = tenants[0]!;
    expectError(await patch(api, 'k0', 10_000, first.token, first.inbox), 'idempotency_key_evicted', { param: 'Idempotency-Key' });
  });

  it("spec §8: at the ceiling the heaviest account pays: a light tenant's answer still replays after a heavy neighbour's flood", () => {
    const store = new IdempotencyStore({ budget: 256 * KIB, totalBudget: 256 * KIB });
    remember(store, 'light', 'kept', 1000);
    for (let i = 0; i < 500; i++) remember(store, 'heavy', `k${i}`, 3000);
    expect(store.bytes).toBeLessThanOrEqual(256 * KIB);
    expect(store.begin('light', 'kept', 'fp', T0).kind).toBe('replay');
    expect(store.begin('heavy', 'k499', 'fp', T0).kind).toBe('replay');
    expect(store.begin('heavy', 'k0', 'fp', T0).kind).toBe('evicted');
  });

  it("spec §8: a heavy neighbour's tombstones past half the ceiling never make a light tenant's evicted key run again", () => {
    const store = new IdempotencyStore({ budget: 128 * KIB, totalBudget: 128 * KIB });
    // Its answer was never kept (larger than the budget): a tombstone, the sandbox's oldest.
    remember(store, 'light', 'refused', 200 * KIB);
    for (let i = 0; i < 3_000; i++) remember(store, 'heavy', `key-${i}-${'k'.repeat(200)}`, 400);
    expect(store.bytes).toBeLessThanOrEqual(128 * KIB);
    expect(store.begin('light', 'refused', 'fp', T0).kind).toBe('evicted');
  });

  it('spec §8: heavy and light tenants over HTTP: the light tenant retries and gets its first answer again', async () => {
    const app = makeApp({ journalSize: 0, idempotencyBudget: '128KiB', idempotencyTotalBudget: '128KiB' });
    const api = client(app);
    const light = await patch(api, 'light-1', 1_000, KEYS.paid, `/v1/email/inboxes/${PINNED.paid.inbox}`);
    expect(light.status).toBe(200);
    for (let i = 0; i < 40; i++) expect((await patch(api, `heavy-${i}`, 10_000)).status).toBe(200);
    expect(app.sandbox.world.idempotency.bytes).toBeLessThanOrEqual(128 * KIB);
    const retry = await patch(api, 'light-1', 1_000, KEYS.paid, `/v1/email/inboxes/${PINNED.paid.inbox}`);
    expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([200, 'true']);
  });

  it('spec §8: with thousands of accounts, tombstones and answers together stay within the ceiling', () => {
    const store = new IdempotencyStore({ budget: 64 * KIB, totalBudget: 512 * KIB });
    for (let a = 0; a < 2_000; a++) for (let k = 0; k < 3; k++) remember(store, `acct_${a}`, `key-${k}-${'k'.repeat(200)}`, 400);
    expect(store.bytes).toBeLessThanOrEqual(512 * KIB);
    expect(store.begin('acct_1999', `key-2-${'k'.repeat(200)}`, 'fp', T0).kind).toBe('replay');
  });
});

describe('contract §1: the idempotency budgets are settings', () => {
  it('contract §1: --idempotency-budget / MOCK_IDEMPOTENCY_BUDGET and --idempotency-total-budget / MOCK_IDEMPOTENCY_TOTAL_BUDGET', () => {
    const parsed = parseCliSettings(['--idempotency-budget', '1MiB'], {
      MOCK_IDEMPOTENCY_BUDGET: '2MiB',
      MOCK_IDEMPOTENCY_TOTAL_BUDGET: '32MiB',
    });
    expect(parsed.options).toMatchObject({ idempotencyBudget: MIB, idempotencyTotalBudget: 32 * MIB });
    expect(() => parseCliSettings(['--idempotency-budget', 'big'], {})).toThrow(/^--idempotency-budget: expected a byte size/);
  });

  it.each([{ idempotencyBudget: 'big' }, { idempotencyTotalBudget: -5 }])('contract §1: %j is refused naming the setting', (options) => {
    expect(() => makeApp(options as never)).toThrow(ConfigError);
    expect(() => makeApp(options as never)).toThrow(/^idempotency-(total-)?budget: expected a byte size/);
  });

  it('contract §1: the defaults are 8 MiB per account and 64 MiB for the sandbox', () => {
    const store = makeApp().sandbox.world.idempotency;
    expect([store.budget, store.totalBudget]).toEqual([8 * MIB, 64 * MIB]);
  });
});

describe('spec §8: what the store holds stays bounded when keys keep coming', () => {
  it('spec §8: 40,000 keys through a full key cap and a shedding budget leave the queues holding a bounded number of entries', () => {
    // A small key cap and a budget that sheds answers: keys are forgotten over the cap while the
    // oldest answers are shed from the front of the same queues, the pattern of a long soak.
    const store = new IdempotencyStore({ keysPerAccount: 1_000, budget: 256 * KIB });
    for (let i = 0; i < 40_000; i++) remember(store, 'acct_soak', `soak-${i}`, 300);
    expect(store.size).toBeLessThanOrEqual(1_000);
    // Each queue keeps at most a constant factor of its live entries (plus a fixed slack): not one
    // entry per key ever seen.
    expect(store.queued).toBeLessThan(4 * (2 * 1_000 + 1_024));
  });
});
