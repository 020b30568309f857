/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { createJob } from '../../src/jobs/create.js';
import { availableCredits } from '../../src/jobs/settle.js';
import { ACCOUNTS, makeApp } from '../support/harness.js';

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
