/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { createJob } from '../../src/jobs/create.js';
import { availableCredits } from '../../src/jobs/settle.js';
import { ACCOUNTS, bearer, client, makeApp } from '../support/harness.js';

describe('credits held by unfinished jobs', () => {
  it('counts a job created before the ledger was first read exactly once', () => {
    const app = makeApp();
    const { sandbox } = app;
    const store = sandbox.world.store.forAccount(ACCOUNTS.paid)!;
    const apiKey = store.collection('api_keys').get('key_paid_default')!;
    // No credit read before the job: the ledger is first built while the job is already stored.
    const before = store.account.credits.balance;
    createJob(sandbox.world.sharedTime.services, store, apiKey, {
      type: 'crawl',
      model: 'web-crawler-1',
      operationId: 'crawlSite',
      input: { url: 'https://example.com/', max_pages: 5, max_depth: 1 },
      units: 5,
      creditsHold: 5,
    } as never);
    expect(availableCredits(store)).toBe(before - 5);
  });
});

describe('credits held by the unfinished jobs of an account loaded from a snapshot (contract §5.3)', () => {
  it('§5.3: a loaded job that ends before any credit check holds nothing once ended, and never frees credits twice', async () => {
    const source = client(makeApp());
    const born = (await source.post('/__admin/accounts').send({ clock: 'frozen', plan: 'paid' })).body;
    const crawl = (api: typeof source) =>
      api.post('/v1/web/crawl').set(bearer(born.api_key.token)).send({ url: 'https://example.com/', max_pages: 100 });
    expect((await crawl(source)).status).toBe(201);
    const snapshot = (await source.get(`/__admin/accounts/${born.account.id}/snapshot`)).body;
    expect(snapshot.jobs).toHaveLength(1);
    // Few credits, so that one crawl of 100 pages more or less shows.
    snapshot.credits = { balance: 250, used: 0 };

    const api = client(makeApp());
    // On the sandbox clock, whose advance settles nothing itself: the hub is the first to settle the job.
    expect((await api.post('/__admin/accounts').send({ snapshot, clock: 'shared' })).status).toBe(201);
    // The loaded job ends on the account's clock: the hub settles it (its cost charged, its hold freed).
    expect((await api.post('/__admin/clock/advance').send({ seconds: 3600 })).status).toBe(200);
    const accepted: number[] = [];
    for (let n = 0; n < 3; n++) accepted.push((await crawl(api)).status);
    const { balance } = (await api.get(`/__admin/accounts/${born.account.id}`)).body.state.credits;
    // Each accepted crawl holds 100 credits while unfinished: never more than the balance.
    expect(accepted.filter((status) => status === 201).length * 100).toBeLessThanOrEqual(balance);
    expect(accepted).toContain(402);
  });
});
