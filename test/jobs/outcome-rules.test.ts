import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../src/clock/virtual-clock.js';
import { DEFAULT_FAILURE, type JobOutcomeContext } from '../../src/jobs/outcome.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { accountState, advance, createCrawl, pollJob } from '../support/jobs.js';

const T0 = Date.parse(FROZEN_AT);
const iso = (seconds: number) => isoTimestamp(T0 + seconds * 1000);

describe('job outcome rules: the seam scenarios plug into', () => {
  it('§3: a rule that fails the job takes it queued -> processing -> failed with its error and error_code', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({
      outcome: 'failed',
      error: 'The site refused the connection.',
      error_code: 'site_unreachable',
      at_progress: 25,
    }));
    const c = client(app);
    // 8 pages: processing would take 2 s; stopping at 25% ends it 0.5 s after the start.
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });
    expect(job).toMatchObject({ status: 'queued', error: null, error_code: null });
    await advance(c, 1.25);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'processing', progress: 12, error: null, error_code: null });
    await advance(c, 0.25);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({
      status: 'failed',
      progress: 25,
      error: 'The site refused the connection.',
      error_code: 'site_unreachable',
      result: null,
      credits_used: 0,
      started_at: iso(1),
      completed_at: iso(1.5),
    });
  });

  it('§3: a failing rule without a message or code gets the documented default', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'failed' }));
    const c = client(app);
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await advance(c, 3600);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'failed', progress: 50, ...DEFAULT_FAILURE });
  });

  it('§3: a job cancelled at progress 0 goes queued -> cancelled without starting: no started_at, no provider request', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'cancelled', at_progress: 0 }));
    const c = client(app);
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await advance(c, 0.5);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('queued');
    await advance(c, 0.5);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({
      status: 'cancelled',
      progress: 0,
      started_at: null,
      completed_at: iso(1),
      provider_request_id: null,
      error: null,
      error_code: null,
      credits_used: 0,
    });
  });

  it('§3: a slow rule stretches the whole timeline by its factor and still charges on completion', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({ slow_factor: 10 }));
    const c = client(app);
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 4 });
    await advance(c, 9.999);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('queued');
    await advance(c, 0.001);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('processing');
    await advance(c, 9.999);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'processing', progress: 99 });
    await advance(c, 0.001);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({
      status: 'completed',
      started_at: iso(10),
      completed_at: iso(20),
      credits_used: 4,
    });
  });

  it('decides at creation: a rule added later does not change jobs already created', async () => {
    const app = makeApp();
    const c = client(app);
    const before = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 2 });
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'failed' }));
    const after = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 2 });
    await advance(c, 60);
    expect((await pollJob(c, KEYS.free, before.id)).status).toBe('completed');
    expect((await pollJob(c, KEYS.free, after.id)).status).toBe('failed');
  });

  it('gives rules the account, key, operation, job id and input (defaults filled), so they can scope themselves', async () => {
    const app = makeApp();
    const seen: JobOutcomeContext[] = [];
    app.sandbox.world.jobOutcomeRules.push((context) => {
      seen.push(context);
      return context.accountId === ACCOUNTS.paid ? { outcome: 'failed', error_code: 'paid_only' } : undefined;
    });
    const c = client(app);
    const free = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    const paid = await createCrawl(c, KEYS.paid, { url: 'https://example.com/', max_pages: 3 });
    expect(seen).toEqual([
      {
        jobId: free.id,
        type: 'crawl',
        operationId: 'crawlSite',
        accountId: ACCOUNTS.free,
        apiKeyId: 'key_free_default',
        input: free.input,
        now: T0,
      },
      {
        jobId: paid.id,
        type: 'crawl',
        operationId: 'crawlSite',
        accountId: ACCOUNTS.paid,
        apiKeyId: 'key_paid_default',
        input: paid.input,
        now: T0,
      },
    ]);
    await advance(c, 60);
    expect((await pollJob(c, KEYS.free, free.id)).status).toBe('completed');
    expect(await pollJob(c, KEYS.paid, paid.id)).toMatchObject({ status: 'failed', error_code: 'paid_only' });
  });

  it('contract §3.1: reset removes every rule', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'failed' }));
    const c = client(app);
    await c.post('/__admin/reset');
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await advance(c, 60);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('completed');
  });

  it('§7.2: a broken rule answers 500 internal_error and stores no job', async () => {
    const app = makeApp();
    app.sandbox.world.jobOutcomeRules.push(() => ({ slow_factor: -1 }));
    const c = client(app);
    const res = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
    expectError(res, 'internal_error', { message: MESSAGES.internal });
    expect((await accountState(c, ACCOUNTS.free)).jobs).toEqual([]);
  });
});
