/**
 * Tenants cost little to create and reset: an account's seeded records are derived from (seed,
 * account, template, creation instant) when first needed, not made at creation, so creating and resetting a tenant
 * hold and copy nothing but its account record and keys. Structural checks only (what the account
 * holds), never heap bytes or timings: those are `npm run bench -- --only tenants`.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { deleteDiscount } from '../../src/resources/discounts/operations.js';
import { updateInbox } from '../../src/resources/email/operations.js';
import { createEventSession } from '../../src/resources/event-sessions/operations.js';
import { listExperiences } from '../../src/resources/experiences/operations.js';
import { getJob } from '../../src/resources/jobs/operations.js';
import { unlinkPriceVariantExperience } from '../../src/resources/price-variants/operations.js';
import { bearer, client, makeApp } from '../support/harness.js';
import { createCrawl } from '../support/jobs.js';
import { expectSuccess, newTenant, stateOf } from '../support/resources.js';
import { storeOf } from '../support/stores.js';

/** Every kind of write a seeded record can get, through the API, answered 2xx. */
async function writeEverything(app: MockApp, accountId: string, token: string): Promise<void> {
  const state = await stateOf(app, accountId);
  const api = client(app);
  const inbox = state.inboxes[0]!;
  expectSuccess(
    await api
      .patch(`/v1/email/inboxes/${inbox.id}`)
      .set(bearer(token))
      .send({ display_name: 'Renamed', metadata: { team: null, tier: 'gold' } }),
    updateInbox,
  );
  const variant = state.price_variants[0]!;
  expectSuccess(
    await api.delete(`/v1/price_variants/${variant.id}/experiences/${variant.experience_ids[0]!}`).set(bearer(token)),
    unlinkPriceVariantExperience,
  );
  expectSuccess(await api.delete(`/v1/discounts/${state.discounts[0]!.id}`).set(bearer(token)), deleteDiscount);
  const event = state.experiences.find((e) => e.type === 'event')!;
  expectSuccess(
    await api
      .post(`/v1/experiences/${event.id}/event_sessions`)
      .set(bearer(token))
      .send({ title: 'Extra', start_time: '2026-03-01T17:00:00Z' }),
    createEventSession,
  );
}

describe('seeded records are derived when first needed', () => {
  it('a tenant that has neither read nor written holds no records: only its keys collection exists', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    expect(store.derivedCached).toBe(false);
    expect(store.ownedCollections).toEqual(['api_keys']);
    expect(store.collection('api_keys').size).toBe(1);
  });

  it('authentication, rate limiting and status polls do not derive the seeded records; a crawl weighs them once, cached, and owns none', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    expect((await client(app).get('/v1/status').set(bearer(tenant.token))).status).toBe(200);
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(false);
    // A crawl's job counts against the record budget, on top of the seeded records: weighed from the cached derivation.
    const job = await createCrawl(client(app), tenant.token, { url: 'https://example.com' });
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(true);
    expectSuccess(await client(app).get(`/v1/jobs/${job.id}`).set(bearer(tenant.token)), getJob);
    expect(storeOf(app, tenant.accountId).ownedCollections.sort()).toEqual(['api_keys', 'jobs']);
  });

  it('the first read derives them into the shared cache, and a list answers them (the account owns none of them)', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const res = await client(app).get('/v1/experiences').set(bearer(tenant.token));
    expectSuccess(res, listExperiences);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(true);
    expect(storeOf(app, tenant.accountId).ownedCollections).toEqual(['api_keys']);
  });

  it('the same records whenever they are first read (same seed): other accounts, writes and time in between change nothing', async () => {
    const early = makeApp({ seed: 'derived' });
    const late = makeApp({ seed: 'derived' });
    const [a, b] = [await newTenant(early), await newTenant(late)];
    expect(b.accountId).toBe(a.accountId);
    const readAtOnce = await stateOf(early, a.accountId);
    const other = await newTenant(late);
    await writeEverything(late, other.accountId, other.token);
    await client(late)
      .post('/__admin/clock/advance')
      .send({ seconds: 86_400 * 3 });
    expect(await stateOf(late, b.accountId)).toEqual(readAtOnce);
  });

  it('the record ids of two accounts are distinct (each account draws from a stream of its own)', async () => {
    const app = makeApp();
    const ids = async (accountId: string) =>
      Object.values(await stateOf(app, accountId))
        .flat()
        .map((record) => (record as { id?: string }).id)
        .filter((id) => id !== undefined);
    const [one, two] = [await newTenant(app), await newTenant(app)];
    const first = new Set(await ids(one.accountId));
    expect(first.size).toBeGreaterThan(50);
    expect((await ids(two.accountId)).filter((id) => first.has(id))).toEqual([]);
  });
});

describe('contract §4.1: an account reset restores the derived records', () => {
  it('contract §4.1: writes of every kind, then a reset: exactly the records of right after creation, derived again when read', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const born = await stateOf(app, tenant.accountId);
    await writeEverything(app, tenant.accountId, tenant.token);
    expect(await stateOf(app, tenant.accountId)).not.toEqual(born);
    expect((await client(app).post(`/__admin/accounts/${tenant.accountId}/reset`)).status).toBe(200);
    // The reset copied nothing: the records come back by being derived again.
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(false);
    expect(storeOf(app, tenant.accountId).ownedCollections).toEqual(['api_keys']);
    expect(await stateOf(app, tenant.accountId)).toEqual(born);
  });

  it('contract §4.1: a deleted seeded record is back after the reset, with its id, and its old cursor pages again', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const [discount] = (await stateOf(app, tenant.accountId)).discounts;
    const remove = () => client(app).delete(`/v1/discounts/${discount!.id}`).set(bearer(tenant.token));
    expectSuccess(await remove(), deleteDiscount);
    expect((await remove()).status).toBe(404);
    await client(app).post(`/__admin/accounts/${tenant.accountId}/reset`);
    expect((await stateOf(app, tenant.accountId)).discounts[0]).toEqual(discount);
    expectSuccess(await remove(), deleteDiscount);
  });

  it('contract §4.1: a tenant reset before it ever read its records reads the same records as one that read them first', async () => {
    const app = makeApp({ seed: 'reset-unread' });
    const twin = makeApp({ seed: 'reset-unread' });
    const [tenant, same] = [await newTenant(app), await newTenant(twin)];
    await client(app).post(`/__admin/accounts/${tenant.accountId}/reset`);
    expect(await stateOf(app, tenant.accountId)).toEqual(await stateOf(twin, same.accountId));
  });
});
