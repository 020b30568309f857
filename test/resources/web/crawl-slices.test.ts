/**
 * Bounded work per turn (README "Tenants": no tenant's work delays another's request by more than a
 * slice): creating a crawl plans its pages, and reading a completed crawl renders them, a few pages
 * per turn of the event loop (src/operations/account-slices.ts), one slice per turn for all of an
 * account's requests together. Held as counts of pages per turn, never as times: a counter advanced
 * by setImmediate tells the turns apart. The plan is pure and comes before anything touches the
 * account: a reset or delete during it finds the request writing to the state it captured.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STEPS_PER_SLICE } from '../../../src/operations/account-slices.js';
import { Site } from '../../../src/resources/web/site.js';
import { deleteAccount, resetAccount } from '../../../src/sandbox/lifecycle.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../../support/harness.js';
import { accountState, advance, createCrawl, expectNoSuchJob, pagesOf, pollJob } from '../../support/jobs.js';

let turn = 0;
let ticking = false;
function startTicking(): void {
  turn = 0;
  ticking = true;
  const tick = (): void => {
    turn += 1;
    if (ticking) setImmediate(tick);
  };
  tick();
}

afterEach(() => {
  ticking = false;
  vi.restoreAllMocks();
});

/** How many calls of `Site.prototype[name]` each turn saw, by turn. */
function callsPerTurn(name: 'page' | 'render', onCall?: (count: number) => void): Map<number, number> {
  const perTurn = new Map<number, number>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the spied instance as `this`
  const original = Site.prototype[name] as (...args: unknown[]) => unknown;
  let count = 0;
  vi.spyOn(Site.prototype, name).mockImplementation(function (this: Site, ...args: unknown[]) {
    perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    onCall?.((count += 1));
    return original.apply(this, args);
  } as never);
  return perTurn;
}

const HUNDRED = { url: 'https://example.com/', max_pages: 100, max_depth: 3 };

describe('creating a crawl plans its pages a slice per turn', () => {
  it('a 100-page crawl describes its pages over many turns, at most a slice of them in any one', async () => {
    const api = client(makeApp());
    const perTurn = callsPerTurn('page');
    startTicking();
    const job = await createCrawl(api, KEYS.paid, HUNDRED);
    expect(job.status).toBe('queued');
    const counts = [...perTurn.values()];
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
    expect(perTurn.size).toBeGreaterThan(5);
    expect(Math.max(...counts)).toBeLessThanOrEqual(STEPS_PER_SLICE);
  });

  it('eight creations in flight for one account take one slice per turn between them, not one each', async () => {
    const api = client(makeApp());
    const perTurn = callsPerTurn('page');
    startTicking();
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api
          .post('/v1/web/crawl')
          .set(bearer(KEYS.paid))
          .send({ ...HUNDRED, url: `https://site-${i}.example.com/` }),
      ),
    );
    for (const res of made) expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(STEPS_PER_SLICE);
  });

  it('contract §4.1: an account reset while a creation plans: the job goes with the state the request captured', async () => {
    const app = makeApp();
    const api = client(app);
    const before = await accountState(api, ACCOUNTS.paid);
    callsPerTurn('page', (count) => {
      if (count === 1) expect(resetAccount(app.sandbox.world, ACCOUNTS.paid)).toBeDefined();
    });
    const job = await createCrawl(api, KEYS.paid, HUNDRED);
    vi.restoreAllMocks();
    // The fixture's key is of the account's birth: it still authenticates, in the fresh state.
    await expectNoSuchJob(api, KEYS.paid, job.id);
    const after = await accountState(api, ACCOUNTS.paid);
    expect(after.jobs).toEqual([]);
    expect(after.credits).toEqual(before.credits);
  });

  it('contract §4.1: an account deleted while a creation plans: the creation answers without a 5xx, and the account stays gone', async () => {
    const app = makeApp();
    const api = client(app);
    const made = await api.post('/__admin/accounts').send({ plan: 'paid' });
    expect(made.status).toBe(201);
    const { account, api_key } = made.body as { account: { id: string }; api_key: { token: string } };
    callsPerTurn('page', (count) => {
      if (count === 1) expect(deleteAccount(app.sandbox.world, account.id)).toBe(true);
    });
    const res = await api.post('/v1/web/crawl').set(bearer(api_key.token)).send(HUNDRED);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    vi.restoreAllMocks();
    expect((await api.get(`/__admin/accounts/${account.id}`)).status).toBe(404);
    expect((await api.get('/v1/auth/keys').set(bearer(api_key.token))).status).toBe(401);
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
    startTicking();
    const again = await pollJob(api, KEYS.paid, job.id);
    expect(again).toEqual(first);
    expect(pagesOf(again).length).toBeGreaterThan(20);
    expect(perTurn.size).toBeGreaterThan(5);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(STEPS_PER_SLICE);
  });
});
