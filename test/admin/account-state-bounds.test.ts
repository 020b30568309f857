/**
 * Contract §3.2: `GET /__admin/accounts/{id}` answers every collection of the account as an array
 * of records with `id`. It stays so for an account that holds little (the whole collection, oldest
 * first), and is bounded for one that holds much: each collection shows its oldest 100 records and
 * the answer at most 4 MiB of them, with `collections` giving each one's count and the listing
 * (`GET /__admin/accounts/{id}/records/{collection}`) that pages through every record. Sizes are
 * read from the answers, never from the clock.
 */
import { describe, expect, it } from 'vitest';
import { createJob } from '../../src/jobs/create.js';
import { STATE_RECORD_BYTES, STATE_RECORDS_PER_COLLECTION } from '../../src/admin/account-state.js';
import { COLLECTION_NAMES } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { PINNED } from '../support/resources.js';
import type { MockApp } from '../../src/app.js';

const MIB = 1024 * 1024;

/** `count` crawl jobs made straight in the store (as a crawl request makes them), with no credits held. */
function addJobs(app: MockApp, count: number): void {
  const store = app.sandbox.world.store.forAccount(ACCOUNTS.paid)!;
  const apiKey = store.collection('api_keys').get('key_paid_default')!;
  for (let i = 0; i < count; i++) {
    createJob(app.sandbox.world.sharedTime.services, store, apiKey, {
      type: 'crawl',
      model: 'web-crawler-1',
      operationId: 'crawlSite',
      input: { url: `https://example.com/${i}`, max_pages: 1, max_depth: 1 },
      units: 1,
      creditsHold: 0,
    });
  }
}

describe('contract §3.2: GET /__admin/accounts/{id} answers a bounded size', () => {
  it('contract §3.2: a small account shows every record of every collection, with counts that match', async () => {
    const app = makeApp();
    const res = await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`);
    expect(res.status).toBe(200);
    for (const name of COLLECTION_NAMES) {
      const { count, shown, url } = res.body.collections[name];
      expect([shown, res.body.state[name].length]).toEqual([count, count]);
      expect(url).toBe(`/__admin/accounts/${ACCOUNTS.free}/records/${name}`);
    }
    expect(res.body.record_budget).toBe(32 * MIB);
    expect(res.body.record_bytes).toBe(app.sandbox.world.store.forAccount(ACCOUNTS.free)!.recordBytes);
  });

  it('contract §3.2: 10,000 jobs show as their oldest 100 and a count; the listing pages through all of them', async () => {
    const app = makeApp();
    addJobs(app, 10_000);
    const res = await client(app).get(`/__admin/accounts/${ACCOUNTS.paid}`);
    expect(res.status).toBe(200);
    expect(res.text.length).toBeLessThan(MIB);
    expect(res.body.state.jobs).toHaveLength(STATE_RECORDS_PER_COLLECTION);
    expect(res.body.collections.jobs).toMatchObject({ count: 10_000, shown: STATE_RECORDS_PER_COLLECTION });
    expect(res.body.state.jobs[0].input.url).toBe('https://example.com/0');

    let seen = 0;
    let cursor: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const page = await client(app)
        .get(res.body.collections.jobs.url)
        .query({ limit: 100, ...(cursor ? { starting_after: cursor } : {}) });
      expect(page.status).toBe(200);
      seen += page.body.data.length;
      cursor = page.body.data.at(-1)?.id;
      if (!page.body.has_more) break;
    }
    expect(seen).toBe(10_000);
  });

  it('the answer holds at most 4 MiB of records however large they are; the rest are listed', async () => {
    const app = makeApp({ rateLimit: 'off' });
    // Conversion events of ~900 KB each: 8 of them are 7 MB of records.
    for (let i = 0; i < 8; i++) {
      const res = await client(app)
        .post('/v1/ads/conversions')
        .set(bearer(KEYS.free))
        .send({
          account_id: PINNED.free.adAccount,
          destination_id: PINNED.free.destination,
          events: [{ event_name: 'Lead', event_time: 1_768_478_400, custom_data: { note: 'y'.repeat(900_000) } }],
        });
      expect(res.status).toBe(200);
    }
    const res = await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`);
    expect(res.text.length).toBeLessThan(STATE_RECORD_BYTES + 256 * 1024);
    const { count, shown } = res.body.collections.conversions;
    expect(count).toBe(8);
    expect(shown).toBeLessThan(8);
    expect(res.body.state.conversions).toHaveLength(shown);
    // One record per page at most fits 4 MiB four times: the listing still reaches every one.
    const page = await client(app).get(res.body.collections.conversions.url);
    expect(page.body.data.length).toBeGreaterThan(0);
    expect(page.text.length).toBeLessThan(STATE_RECORD_BYTES + 256 * 1024);
    expect(page.body.has_more).toBe(true);
  });

  it('the listing refuses an unknown collection (404) and an unknown cursor (400)', async () => {
    const app = makeApp();
    expectError(await client(app).get(`/__admin/accounts/${ACCOUNTS.free}/records/widgets`), 'resource_missing', {
      param: 'collection',
      api: false,
    });
    expectError(await client(app).get(`/__admin/accounts/${ACCOUNTS.free}/records/forms?starting_after=frm_nope`), 'bad_request', {
      param: 'starting_after',
      api: false,
    });
    expectError(await client(app).get(`/__admin/accounts/acct_nope/records/forms`), 'resource_missing', { param: 'id', api: false });
  });

  it('the listing pages with limit, newest first', async () => {
    const app = makeApp();
    const res = await client(app).get(`/__admin/accounts/${ACCOUNTS.free}/records/forms?limit=2`);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.has_more).toBe(true);
  });
});
