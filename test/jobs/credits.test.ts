import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { accountState, advance, createCrawl, pollJob } from '../support/jobs.js';

const FREE_CREDITS = 1000;

describe('credits (spec §1, §3, §4.3: charged on completion)', () => {
  it('§3: charges a completed crawl exactly once, however often it is polled and however far the clock jumps', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 6 });
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS, used: 0 });

    for (const step of [0.5, 0.5, 0.5, 1, 1, 10, 3600, 86_400 * 365]) {
      await advance(c, step);
      for (let i = 0; i < 3; i++) await pollJob(c, KEYS.free, job.id);
      await accountState(c, ACCOUNTS.free);
    }
    const done = await pollJob(c, KEYS.free, job.id);
    expect(done.status).toBe('completed');
    expect(done.credits_used).toBe(done.result.pages_count);
    const state = await accountState(c, ACCOUNTS.free);
    expect(state.credits).toEqual({ balance: FREE_CREDITS - done.credits_used, used: done.credits_used });
    expect(state.jobs[0]).toMatchObject({ id: job.id, status: 'completed', credits_used: done.credits_used });
  });

  it('§3: charges a job that completed unobserved when the admin state is read first', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 3 });
    await advance(c, 100);
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS - 3, used: 3 });
    expect((await pollJob(c, KEYS.free, job.id)).credits_used).toBe(3);
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS - 3, used: 3 });
  });

  it('§3: charges nothing before completion', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });
    await advance(c, 2);
    expect((await pollJob(c, KEYS.free, job.id)).credits_used).toBe(0);
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS, used: 0 });
  });

  it('§3: charges each of several jobs once, and only its own account', async () => {
    const c = client(makeApp());
    const a = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 2 });
    const b = await createCrawl(c, KEYS.free, { url: 'https://shop.example.net/', max_pages: 5 });
    await advance(c, 60);
    const used = (await pollJob(c, KEYS.free, a.id)).credits_used + (await pollJob(c, KEYS.free, b.id)).credits_used;
    expect(used).toBe(7);
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS - 7, used: 7 });
    expect((await accountState(c, ACCOUNTS.paid)).credits).toEqual({ balance: 100_000, used: 0 });
  });

  it('§3: the admin account list shows settled credits too', async () => {
    const c = client(makeApp());
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 2 });
    await advance(c, 60);
    const list = await c.get('/__admin/accounts');
    expect(list.body.data.find((a: { id: string }) => a.id === ACCOUNTS.free).credits).toEqual({ balance: FREE_CREDITS - 2, used: 2 });
  });

  it('§4.3: a crawl whose max_pages the available credits cannot cover answers 402 insufficient_credits and creates nothing', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.store.forAccount(ACCOUNTS.free)!.account.credits.balance = 5;
    const res = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 6 });
    expectError(res, 'insufficient_credits', { message: MESSAGES.insufficientCredits(6, 5) });
    expect((await accountState(c, ACCOUNTS.free)).jobs).toEqual([]);
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 5 });
  });

  it('§4.3: unfinished jobs hold their max_pages of credits until they end, so completions never overdraw', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.store.forAccount(ACCOUNTS.free)!.account.credits.balance = 10;
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 6 });
    const refused = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 5 });
    expectError(refused, 'insufficient_credits', { message: MESSAGES.insufficientCredits(5, 4) });
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 4 });
    await advance(c, 60);
    const { credits } = await accountState(c, ACCOUNTS.free);
    expect(credits.balance).toBeGreaterThanOrEqual(0);
    expect(credits.balance + credits.used).toBe(10);
  });

  it('§4.3: credits come back into reach once the holding job has ended', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.store.forAccount(ACCOUNTS.free)!.account.credits.balance = 10;
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 10, max_depth: 0 });
    expectError(
      await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 }),
      'insufficient_credits',
      {
        message: MESSAGES.insufficientCredits(1, 0),
      },
    );
    await advance(c, 60);
    // max_depth 0 crawls one page: 1 credit charged, the other 9 held ones released.
    await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 9 });
  });

  it('§3: a failed job charges nothing and holds nothing once ended', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'failed' }));
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 10 });
    for (const step of [1, 1, 100, 86_400]) {
      await advance(c, step);
      await pollJob(c, KEYS.free, job.id);
    }
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'failed', credits_used: 0, result: null });
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS, used: 0 });
  });

  it('§3: a cancelled job charges nothing', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.jobOutcomeRules.push(() => ({ outcome: 'cancelled', at_progress: 80 }));
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 10 });
    await advance(c, 3600);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'cancelled', progress: 80, credits_used: 0, result: null });
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: FREE_CREDITS, used: 0 });
  });
});
