/**
 * Only what the tenant changes is stored: a tenant that reads its seeded records but
 * never writes them owns none of them; they are answered from a small process-wide cache and derived
 * again after an eviction. Structural checks only (what each account owns, what the cache holds),
 * never heap bytes: those are `npm run bench -- --only tenants`.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { deleteDiscount } from '../../src/resources/discounts/operations.js';
import { updateInbox } from '../../src/resources/email/operations.js';
import { DERIVED_CACHE_CAPACITY, LruCache } from '../../src/store/derived-cache.js';
import { bearer, client, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, stateOf } from '../support/resources.js';
import { SEEDED_COLLECTIONS as SEEDED, storeOf } from '../support/stores.js';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/**
 * Everything a tenant can read, as the exact bytes answered: every /v1 list, then the admin state
 * (last, so the key's `last_used_at` is set the same way on every call).
 */
async function readEverything(app: MockApp, tenant: Tenant): Promise<string[]> {
  const api = client(app);
  const state = await api.get(`/__admin/accounts/${tenant.accountId}`);
  expect(state.status).toBe(200);
  const inboxes = (state.body.state as { inboxes: { id: string }[] }).inboxes;
  const paths = [
    '/v1/experiences?limit=100',
    '/v1/experiences?type=event',
    '/v1/auth/keys',
    ...inboxes.map((inbox) => `/v1/email/inboxes/${inbox.id}/messages?limit=100`),
    ...inboxes.map((inbox) => `/v1/email/inboxes/${inbox.id}/messages?label=received&direction=inbound`),
  ];
  const answers: string[] = [];
  for (const path of paths) {
    const res = await api.get(path).set(bearer(tenant.token));
    expect(res.status, path).toBe(200);
    answers.push(res.text);
  }
  const after = await api.get(`/__admin/accounts/${tenant.accountId}`);
  return [...answers, JSON.stringify(after.body.state)];
}

/** Reads enough other tenants to push every earlier one out of the cache. */
async function evictAll(app: MockApp): Promise<void> {
  for (let i = 0; i < DERIVED_CACHE_CAPACITY; i++) await stateOf(app, (await newTenant(app)).accountId);
}

describe('a tenant that has read but not written owns no seeded records', () => {
  it('after reading every collection (admin state and the /v1 lists) the tenant owns only its keys', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const answers = await readEverything(app, tenant);
    expect(answers.join('').length).toBeGreaterThan(10_000);
    const store = storeOf(app, tenant.accountId);
    expect(store.ownedCollections).toEqual(['api_keys']);
    expect(store.derivedCached).toBe(true);
  });

  it('after an eviction (more tenants read than the cache holds) a re-read answers byte-identical bytes', async () => {
    const app = makeApp({ seed: 'evict' });
    const tenant = await newTenant(app);
    const first = await readEverything(app, tenant);
    await evictAll(app);
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(false);
    expect(await readEverything(app, tenant)).toEqual(first);
    expect(storeOf(app, tenant.accountId).ownedCollections).toEqual(['api_keys']);
  });

  it('a cache miss draws nothing from the world: the ids other accounts get next are the same', async () => {
    const [quiet, busy] = [makeApp({ seed: 'miss' }), makeApp({ seed: 'miss' })];
    const [a, b] = [await newTenant(quiet), await newTenant(busy)];
    await readEverything(busy, b);
    for (let i = 0; i < 3; i++) {
      await evictAll(busy);
      await readEverything(busy, b);
    }
    for (let i = 0; i < 3 * DERIVED_CACHE_CAPACITY; i++) await newTenant(quiet);
    const [next, nextBusy] = [await newTenant(quiet), await newTenant(busy)];
    expect(nextBusy.accountId).toBe(next.accountId);
    expect(await readEverything(busy, b)).toEqual(await readEverything(quiet, a));
  });

  it('a cached record is frozen: a change that does not go through write() throws instead of being lost', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    const inbox = store.collection('inboxes').values()[0]!;
    expect(() => {
      inbox.display_name = 'lost on eviction';
    }).toThrow(TypeError);
    expect(() => {
      inbox.metadata['team'] = 'lost';
    }).toThrow(TypeError);
    expect(store.ownedCollections).toEqual(['api_keys']);
  });
});

describe('the first write makes the collection the tenant\u2019s own', () => {
  it('a write owns only the collections it changed, and they are kept across evictions', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const state = await stateOf(app, tenant.accountId);
    const [discount] = state.discounts;
    const [inbox] = state.inboxes;
    const api = client(app);
    expectSuccess(await api.delete(`/v1/discounts/${discount!.id}`).set(bearer(tenant.token)), deleteDiscount);
    const patched = await api.patch(`/v1/email/inboxes/${inbox!.id}`).set(bearer(tenant.token)).send({ display_name: 'Kept' });
    expectSuccess(patched, updateInbox);
    const store = storeOf(app, tenant.accountId);
    expect(store.ownedCollections.sort()).toEqual(['api_keys', 'discounts', 'inboxes']);
    const written = await readEverything(app, tenant);
    await evictAll(app);
    expect(store.derivedCached).toBe(false);
    expect(await readEverything(app, tenant)).toEqual(written);
    const after = await stateOf(app, tenant.accountId);
    expect(after.discounts.map((d) => d.id)).not.toContain(discount!.id);
    expect(after.inboxes[0]!.display_name).toBe('Kept');
    // Everything not written is still the derived records.
    for (const name of SEEDED.filter((n) => n !== 'discounts' && n !== 'inboxes')) expect(after[name], name).toEqual(state[name]);
  });

  it('an owned record can change in place; a request that fails (404) owns nothing new', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    expect((await client(app).delete('/v1/discounts/disc_nope').set(bearer(tenant.token))).status).toBe(404);
    expect(store.ownedCollections).toEqual(['api_keys']);
    const owned = store.write('inboxes').values()[0]!;
    owned.display_name = 'changed in place';
    expect(store.collection('inboxes').values()[0]!.display_name).toBe('changed in place');
  });

  it('a reset drops the owned copies and the cache entry: the records come back derived', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const born = await readEverything(app, tenant);
    const [discount] = (await stateOf(app, tenant.accountId)).discounts;
    await client(app).delete(`/v1/discounts/${discount!.id}`).set(bearer(tenant.token));
    expect((await client(app).post(`/__admin/accounts/${tenant.accountId}/reset`)).status).toBe(200);
    const fresh = storeOf(app, tenant.accountId);
    expect(fresh.ownedCollections).toEqual(['api_keys']);
    expect(fresh.derivedCached).toBe(false);
    expect(await readEverything(app, tenant)).toEqual(born);
  });
});

describe('the LRU cache of derived seeded records', () => {
  it('holds at most its capacity and evicts the least recently used', () => {
    const cache = new LruCache<string, number>(2);
    let made = 0;
    const get = (key: string) => cache.get(key, () => ++made);
    expect([get('a'), get('b'), get('a')]).toEqual([1, 2, 1]);
    get('c');
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.size]).toEqual([true, false, true, 2]);
    expect(get('b')).toBe(4);
  });
});
