/** A request's jobs are created through the factory dispatch binds for it: its own rule decides first. */
import { describe, expect, it } from 'vitest';
import { jobFactory } from '../../src/jobs/create.js';
import { ACCOUNTS, makeApp } from '../support/harness.js';

const CRAWL = {
  type: 'crawl',
  model: 'web-crawler-1',
  operationId: 'crawlSite',
  input: { url: 'https://example.com/', max_pages: 2, max_depth: 1 },
  units: 2,
  creditsHold: 2,
} as const;

describe('the per-request job factory', () => {
  it("puts the request's rule before the world's, each part from the first rule that sets it", () => {
    const { world } = makeApp().sandbox;
    const services = world.timeOf(ACCOUNTS.paid).services;
    const store = world.store.forAccount(ACCOUNTS.paid)!;
    const apiKey = store.collection('api_keys').get('key_paid_default')!;
    world.jobOutcomeRules.push(() => ({ outcome: 'failed', error_code: 'world_rule', slow_factor: 2 }));
    let asked = 0;
    const jobs = jobFactory(services, () => {
      asked += 1;
      return { outcome: 'cancelled', at_progress: 0 };
    });
    const job = jobs(store, apiKey, { ...CRAWL, input: { ...CRAWL.input } });
    // Asked once, when the job is created: a scenario's `times` counts jobs.
    expect(asked).toBe(1);
    expect(job.timeline).toMatchObject({ outcome: 'cancelled', ends_at_progress: 0, error_code: null });
    // The world's slow_factor still applies: the request's rule did not set it.
    expect(job.timeline.started_at_ms - job.timeline.queued_at_ms).toBe(2 * world.jobSettings.crawl.queued_seconds * 1000);
  });

  it('without a request rule, only the world decides', () => {
    const { world } = makeApp().sandbox;
    const services = world.timeOf(ACCOUNTS.paid).services;
    const store = world.store.forAccount(ACCOUNTS.paid)!;
    const apiKey = store.collection('api_keys').get('key_paid_default')!;
    const job = jobFactory(services)(store, apiKey, { ...CRAWL, input: { ...CRAWL.input } });
    expect(job.timeline.outcome).toBe('completed');
  });
});
