/**
 * Bounded work per turn (README "Tenants": no tenant's work delays another's request by more than a
 * slice): reading a completed crawl renders its pages a few per turn of the event loop
 * (src/operations/account-slices.ts), one slice per turn for all of an account's reads together.
 * Held as counts of pages per turn, never as times: a counter advanced by setImmediate tells the
 * turns apart. Creating a crawl plans in its own turn, so an account's creations keep their order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STEPS_PER_SLICE } from '../../../src/operations/account-slices.js';
import { Site } from '../../../src/resources/web/site.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../../support/harness.js';
import { accountState, advance, createCrawl, pagesOf, pollJob } from '../../support/jobs.js';
import { TurnCounter } from '../../support/turns.js';

const loop = new TurnCounter();

afterEach(() => {
  loop.stop();
  vi.restoreAllMocks();
});

/** How many calls of `Site.prototype[name]` each turn saw, by turn. */
function callsPerTurn(name: 'page' | 'render', onCall?: (count: number) => void): Map<number, number> {
  const perTurn = new Map<number, number>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the spied instance as `this`
  const original = Site.prototype[name] as (...args: unknown[]) => unknown;
  let count = 0;
  vi.spyOn(Site.prototype, name).mockImplementation(function (this: Site, ...args: unknown[]) {
    perTurn.set(loop.turn, (perTurn.get(loop.turn) ?? 0) + 1);
    onCall?.((count += 1));
    return original.apply(this, args);
  } as never);
  return perTurn;
}

const HUNDRED = { url: 'https://example.com/', max_pages: 100, max_depth: 3 };

describe('creating a crawl plans its pages in its own turn', () => {
  it("an account's creations take effect in the order they arrive: a 1-page crawl sent while a 100-page one plans comes second", async () => {
    // Sequentially first: the ids the two creations take in this order.
    const sequential = client(makeApp());
    const firstId = (await createCrawl(sequential, KEYS.paid, HUNDRED)).id as string;
    const secondId = (await createCrawl(sequential, KEYS.paid, { url: 'https://small.example.com/', max_pages: 1 })).id as string;

    const app = makeApp();
    const api = client(app);
    let small: Promise<{ status: number; body: { id: string } }> | undefined;
    // The small crawl leaves while the large one is planning its pages.
    callsPerTurn('page', (count) => {
      if (count === 1)
        small = api.post('/v1/web/crawl').set(bearer(KEYS.paid)).send({ url: 'https://small.example.com/', max_pages: 1 }).then();
    });
    const large = await createCrawl(api, KEYS.paid, HUNDRED);
    const smallAnswer = await small!;
    vi.restoreAllMocks();
    expect(smallAnswer.status).toBe(201);
    expect([large.id, smallAnswer.body.id]).toEqual([firstId, secondId]);
    expect((await accountState(api, ACCOUNTS.paid)).jobs.map((job: { id: string }) => job.id)).toEqual([firstId, secondId]);
  });

  it('a refused creation (402) leaves nothing behind: no job, credits unchanged', async () => {
    const app = makeApp();
    const api = client(app);
    // Fewer credits than 100 pages hold.
    app.sandbox.world.store.forAccount(ACCOUNTS.paid)!.account.credits.balance = 50;
    const before = await accountState(api, ACCOUNTS.paid);
    const res = await api.post('/v1/web/crawl').set(bearer(KEYS.paid)).send(HUNDRED);
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    const after = await accountState(api, ACCOUNTS.paid);
    expect(after.jobs).toEqual(before.jobs);
    expect(after.credits).toEqual(before.credits);
  });
});

describe('reading a completed crawl renders its pages a slice per turn', () => {
  it('GET /v1/jobs/{id} of a completed 100-page crawl renders over many turns, at most a slice of pages in any one, the same bytes', async () => {
    const api = client(makeApp());
    const job = await createCrawl(api, KEYS.paid, HUNDRED);
    await advance(api, 86_400);
    const first = await pollJob(api, KEYS.paid, job.id);
    expect(first.status).toBe('completed');
    const perTurn = callsPerTurn('render');
    loop.start();
    const again = await pollJob(api, KEYS.paid, job.id);
    expect(again).toEqual(first);
    expect(pagesOf(again).length).toBeGreaterThan(20);
    expect(perTurn.size).toBeGreaterThan(5);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(STEPS_PER_SLICE);
  });
});
