/**
 * Settling due jobs must not block the event loop. Proved by structure, never by a
 * wall-clock budget: settling renders no page (the generator is counted), the stored job holds no
 * pages, and the admin state of a job is the same size whatever its page count.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Site } from '../../src/resources/web/site.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { accountState, advance, createCrawl, pollJob, type Client } from '../support/jobs.js';

const DUE_JOBS = 25;

/** Creates `count` crawls of a few pages each on the paid account and lets them all come due. */
async function dueCrawls(c: Client, count: number): Promise<Array<Record<string, any>>> {
  const jobs = [];
  for (let i = 0; i < count; i++) jobs.push(await createCrawl(c, KEYS.paid, { url: `https://site-${i}.example.com/`, max_pages: 5 }));
  await advance(c, 3600);
  return jobs;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settling a due job costs O(1), its pages are built only when it is read', () => {
  it('an admin account read settles every due job and charges them without rendering a page', async () => {
    const app = makeApp();
    const c = client(app);
    const jobs = await dueCrawls(c, DUE_JOBS);
    const render = vi.spyOn(Site.prototype, 'render');
    const describe = vi.spyOn(Site.prototype, 'page');

    const state = await accountState(c, ACCOUNTS.paid);

    expect(render).not.toHaveBeenCalled();
    expect(describe).not.toHaveBeenCalled();
    expect(state.jobs.map((job) => job.status)).toEqual(jobs.map(() => 'completed'));
    const charged = state.jobs.reduce((sum, job) => sum + job.credits_used, 0);
    expect(charged).toBeGreaterThan(0);
    expect(state.credits.used).toBe(charged);
  });

  it("a crawl's credit check settles the due jobs without rendering a page", async () => {
    const app = makeApp();
    const c = client(app);
    await dueCrawls(c, DUE_JOBS);
    const render = vi.spyOn(Site.prototype, 'render');

    await createCrawl(c, KEYS.paid, { url: 'https://another.example.com/', max_pages: 3 });

    expect(render).not.toHaveBeenCalled();
    const used = (await accountState(c, ACCOUNTS.paid)).credits.used;
    expect(used).toBeGreaterThan(0);
  });

  it("reading one completed job renders that job's pages only, however many other jobs are due", async () => {
    const app = makeApp();
    const c = client(app);
    const jobs = await dueCrawls(c, DUE_JOBS);
    const render = vi.spyOn(Site.prototype, 'render');

    const done = await pollJob(c, KEYS.paid, jobs[0]!.id);

    expect(done.status).toBe('completed');
    expect(render).toHaveBeenCalledTimes(done.result.pages_count);
  });

  it('the stored job record keeps no result pages, read or not', async () => {
    const app = makeApp();
    const c = client(app);
    const job = await createCrawl(c, KEYS.paid, { url: 'https://example.com/', max_pages: 10 });
    await advance(c, 3600);
    const done = await pollJob(c, KEYS.paid, job.id);
    expect(done.result.pages).toHaveLength(done.result.pages_count);

    const record = app.sandbox.world.store.forAccount(ACCOUNTS.paid)!.collection('jobs').get(job.id)!;
    expect(record).not.toHaveProperty('result');
    expect(JSON.stringify(record)).not.toContain('markdown');
  });

  it('a completed crawl reads the same bytes twice, after a reset, and in another sandbox of the same seed', async () => {
    const run = async (c: Client) => {
      const job = await createCrawl(c, KEYS.paid, { url: 'https://example.com/blog', max_pages: 12 });
      await advance(c, 3600);
      const first = await c.get(`/v1/jobs/${job.id}`).set(bearer(KEYS.paid));
      const second = await c.get(`/v1/jobs/${job.id}`).set(bearer(KEYS.paid));
      expect(second.text).toBe(first.text);
      return first.text;
    };
    const app = makeApp({ seed: 'fidelity' });
    const c = client(app);
    const original = await run(c);
    expect(JSON.parse(original).result.pages_count).toBeGreaterThan(1);

    await c.post('/__admin/reset');
    expect(await run(c)).toBe(original);
    expect(await run(client(makeApp({ seed: 'fidelity' })))).toBe(original);
  });
});

describe('the admin state summarizes jobs instead of inlining their pages (README "Jobs in the admin state")', () => {
  /** A completed crawl's entry in `state.jobs`, and the job as `GET /v1/jobs/{id}` answers it. */
  async function summaryOf(maxPages: number) {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.paid, { url: 'https://example.com/', max_pages: maxPages, max_depth: 10 });
    await advance(c, 3600);
    const summary = (await accountState(c, ACCOUNTS.paid)).jobs.find((entry) => entry.id === job.id);
    const read = await c.get(summary.url).set(bearer(KEYS.paid));
    return { summary, job: read.body };
  }

  it('a job entry names its page count and the path that reads its pages', async () => {
    const { summary, job } = await summaryOf(10);
    expect(summary).toMatchObject({
      id: job.id,
      type: 'crawl',
      status: 'completed',
      created_at: job.created_at,
      started_at: job.started_at,
      completed_at: job.completed_at,
      credits_used: job.credits_used,
      result_summary: { pages_count: job.result.pages_count },
      url: `/v1/jobs/${job.id}`,
    });
    expect(summary).not.toHaveProperty('result');
  });

  it('a job entry is the same size for a 1-page and a 100-page crawl', async () => {
    const small = await summaryOf(1);
    const large = await summaryOf(100);
    expect(small.job.result.pages_count).toBe(1);
    expect(large.job.result.pages_count).toBe(100);
    // Only numbers differ (max_pages, page count, credits, timeline instants): a few digits, not pages.
    const growth = JSON.stringify(large.summary).length - JSON.stringify(small.summary).length;
    expect(growth).toBeLessThanOrEqual(20);
    expect(JSON.stringify(large.summary)).not.toContain('markdown');
  });

  it('an unfinished or a failed job has no result summary', async () => {
    const app = makeApp();
    const c = client(app);
    const queued = await createCrawl(c, KEYS.paid, { url: 'https://example.com/' });
    // Fails a tenth of the way through: 1 s queued + 10% of 2.5 s, ended well before the other.
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'failed', at_progress: 10 }));
    const failed = await createCrawl(c, KEYS.paid, { url: 'https://example.com/' });
    await advance(c, 1.5);
    const { jobs } = await accountState(c, ACCOUNTS.paid);
    expect(jobs.find((job) => job.id === queued.id)).toMatchObject({ status: 'processing', result_summary: null });
    expect(jobs.find((job) => job.id === failed.id)).toMatchObject({ status: 'failed', result_summary: null });
  });
});
