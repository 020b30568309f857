/**
 * Contract §5.4: `POST /__admin/clock/advance` and `POST /__admin/accounts/{id}/clock/advance` take
 * `{"until": "idle"}` instead of `seconds`: the clock moves to the instant at which nothing of the
 * account (of every account on the sandbox clock, for the sandbox clock) is still due: every job
 * ended, every webhook delivery succeeded or failed. At most `max_seconds` (default 604800); the answer
 * adds `advanced_seconds`; with nothing due it moves 0 seconds.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { AdminClient } from '../../src/admin/client.js';
import { applyClockMove, DEFAULT_IDLE_MAX_SECONDS } from '../../src/admin/clock-input.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp, startServer } from '../support/harness.js';
import { useReceivers } from '../webhooks/support.js';

const receiver = useReceivers();
const FROZEN_MS = Date.parse(FROZEN_AT);

function jobEnd(app: MockApp, accountId: string, jobId: string): number {
  const job = app.sandbox.world.store.forAccount(accountId)!.collection('jobs').get(jobId);
  if (!job) throw new Error(`no job ${jobId}`);
  return job.timeline.ends_at_ms;
}

async function crawl(api: ReturnType<typeof client>, token: string, maxPages = 3): Promise<string> {
  const res = await api.post('/v1/web/crawl').set(bearer(token)).send({ url: 'https://example.com/', max_pages: maxPages });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe('contract §5.4: clocks that run until idle', () => {
  it('§5.4: the sandbox clock moves to the instant the last job of its accounts ends, and the job event is delivered', async () => {
    const hooks = await receiver();
    const app = makeApp();
    const api = client(app);
    expect((await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: hooks.url })).status).toBe(201);
    const short = await crawl(api, KEYS.free, 1);
    const long = await crawl(api, KEYS.paid, 20);
    const last = Math.max(jobEnd(app, ACCOUNTS.free, short), jobEnd(app, ACCOUNTS.paid, long));
    expect(last).toBeGreaterThan(FROZEN_MS);

    const res = await api.post('/__admin/clock/advance').send({ until: 'idle' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: new Date(last).toISOString(), mode: 'frozen', advanced_seconds: (last - FROZEN_MS) / 1000 });
    for (const [token, id] of [
      [KEYS.free, short],
      [KEYS.paid, long],
    ] as const) {
      expect((await api.get(`/v1/jobs/${id}`).set(bearer(token))).body.status).toBe('completed');
    }
    // Every delivery ended (the job's event included) before the answer.
    const deliveries = (await api.get('/__admin/webhook_deliveries').query({ account_id: ACCOUNTS.free })).body.data;
    expect(deliveries.map((d: { event: { type: string }; status: string }) => [d.event.type, d.status])).toContainEqual([
      'job.completed',
      'succeeded',
    ]);
    expect(deliveries.every((d: { status: string }) => d.status !== 'pending')).toBe(true);
  });

  it('§5.4: with nothing due it moves 0 seconds', async () => {
    const api = client(makeApp());
    const res = await api.post('/__admin/clock/advance').send({ until: 'idle' });
    expect(res.body).toEqual({ now: new Date(FROZEN_MS).toISOString(), mode: 'frozen', advanced_seconds: 0 });
    const own = await api.post(`/__admin/accounts/${ACCOUNTS.free}/clock/advance`).send({ until: 'idle' });
    expect(own.body).toEqual({ now: new Date(FROZEN_MS).toISOString(), mode: 'frozen', shared: false, advanced_seconds: 0 });
  });

  it('§5.4: a delivery whose receiver keeps failing is retried until it has failed; the clock stops at its last attempt', async () => {
    const hooks = await receiver(() => 500);
    const app = makeApp();
    const api = client(app);
    expect((await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: hooks.url })).status).toBe(201);
    expect((await api.post('/__admin/events').send({ account_id: ACCOUNTS.free, type: 'customer.created' })).status).toBe(201);
    const res = await api.post('/__admin/clock/advance').send({ until: 'idle' });
    const spread = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(res.body.advanced_seconds).toBe(spread);
    expect(hooks.arrivals).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    const [delivery] = (await api.get('/__admin/webhook_deliveries').query({ account_id: ACCOUNTS.free })).body.data;
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(Date.parse(delivery.attempts.at(-1).at)).toBe(Date.parse(res.body.now));
  });

  it('§5.4: at most max_seconds; what is left is done by the next call', async () => {
    const app = makeApp();
    const api = client(app);
    const id = await crawl(api, KEYS.free, 20);
    const end = jobEnd(app, ACCOUNTS.free, id);
    const res = await api.post('/__admin/clock/advance').send({ until: 'idle', max_seconds: 1 });
    expect(res.body).toMatchObject({ now: new Date(FROZEN_MS + 1000).toISOString(), advanced_seconds: 1 });
    expect(end).toBeGreaterThan(FROZEN_MS + 1000);
    expect((await api.get(`/v1/jobs/${id}`).set(bearer(KEYS.free))).body.status).not.toBe('completed');

    // Stopped at the limit, the rest of the work is left for the next call.
    const hooks = await receiver(() => 500);
    const c = client(makeApp());
    await c.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: hooks.url });
    await c.post('/__admin/events').send({ account_id: ACCOUNTS.free, type: 'customer.created' });
    const limited = await c.post('/__admin/clock/advance').send({ until: 'idle', max_seconds: 60 });
    expect(limited.body.advanced_seconds).toBe(60);
    const rest = await c.post('/__admin/clock/advance').send({ until: 'idle' });
    expect(rest.body.advanced_seconds + 60).toBe(RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0));
  });

  it('§5.4: without max_seconds, work that never ends stops the clock a week (604800 s) later', async () => {
    const clock = new VirtualClock(FROZEN_MS, 'frozen', () => 0);
    let moves = 0;
    // Something due every day, forever (as a receiver would be, were retries endless).
    const work = { nextDue: () => clock.now() + 86_400_000, moved: () => Promise.resolve(void (moves += 1)) };
    // What `clockAdvanceMove` makes of `{"until": "idle"}` without max_seconds.
    expect(DEFAULT_IDLE_MAX_SECONDS).toBe(604_800);
    expect(await applyClockMove({ untilIdle: { maxMs: DEFAULT_IDLE_MAX_SECONDS * 1000 } }, clock, work)).toBe(604_800_000);
    expect([clock.now() - FROZEN_MS, moves]).toEqual([604_800_000, 7]);
  });

  it('§5.4: an account’s clock runs until nothing of that account is due; the sandbox clock and other accounts stay', async () => {
    const app = makeApp();
    const api = client(app);
    const mine = await crawl(api, KEYS.free, 2);
    const theirs = await crawl(api, KEYS.paid, 2);
    const res = await api.post(`/__admin/accounts/${ACCOUNTS.free}/clock/advance`).send({ until: 'idle' });
    const end = jobEnd(app, ACCOUNTS.free, mine);
    expect(res.body).toEqual({
      now: new Date(end).toISOString(),
      mode: 'frozen',
      shared: false,
      advanced_seconds: (end - FROZEN_MS) / 1000,
    });
    expect((await api.get(`/v1/jobs/${mine}`).set(bearer(KEYS.free))).body.status).toBe('completed');
    expect((await api.get(`/v1/jobs/${theirs}`).set(bearer(KEYS.paid))).body.status).not.toBe('completed');
    expect((await api.get('/__admin/clock')).body.now).toBe(new Date(FROZEN_MS).toISOString());
  });

  it('§5.4: the sandbox clock counts only the accounts that share it, not those with their own clock', async () => {
    const app = makeApp();
    const api = client(app);
    expect((await api.post(`/__admin/accounts/${ACCOUNTS.paid}/clock`).send({ mode: 'frozen' })).status).toBe(200);
    const theirs = await crawl(api, KEYS.paid, 2);
    const res = await api.post('/__admin/clock/advance').send({ until: 'idle' });
    expect(res.body.advanced_seconds).toBe(0);
    expect(jobEnd(app, ACCOUNTS.paid, theirs)).toBeGreaterThan(FROZEN_MS);
  });

  it('§5.4: until is "idle", instead of seconds; max_seconds goes with it; each refusal names its member', async () => {
    const api = client(makeApp());
    for (const path of ['/__admin/clock/advance', `/__admin/accounts/${ACCOUNTS.free}/clock/advance`]) {
      expectError(await api.post(path).send({ until: 'idle', seconds: 5 }), 'validation_failed', {
        api: false,
        param: 'until',
        errors: { until: [expect.any(String)] },
      });
      expectError(await api.post(path).send({ seconds: 5, max_seconds: 5 }), 'validation_failed', {
        api: false,
        param: 'max_seconds',
        errors: { max_seconds: [expect.any(String)] },
      });
      const soon = await api.post(path).send({ until: 'soon' });
      expect([soon.status, soon.body.error.param]).toEqual([422, 'until']);
      const negative = await api.post(path).send({ until: 'idle', max_seconds: -1 });
      expect([negative.status, negative.body.error.param]).toEqual([422, 'max_seconds']);
      expectError(await api.post(path).send({}), 'parameter_missing', {
        api: false,
        param: 'seconds',
        message: 'Missing required parameter: seconds.',
      });
    }
    // Nothing moved.
    expect((await api.get('/__admin/clock')).body.now).toBe(new Date(FROZEN_MS).toISOString());
  });

  it('§5.4: the typed client: admin.clock.advance({ until: "idle" }) and tenant.clock.advance({ until: "idle" })', async () => {
    const mock = await startServer();
    try {
      const admin = new AdminClient(mock.url);
      const tenant = await admin.accounts.create({ clock: 'frozen' });
      const res = await fetch(`${mock.apiUrl}/web/crawl`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/', max_pages: 2 }),
      });
      const job = (await res.json()) as { id: string };
      const idle = await tenant.clock.advance({ until: 'idle' });
      expect(idle.advanced_seconds).toBeGreaterThan(0);
      const polled = (await (
        await fetch(`${mock.apiUrl}/jobs/${job.id}`, { headers: { authorization: `Bearer ${tenant.token}` } })
      ).json()) as {
        status: string;
        completed_at: string;
      };
      expect([polled.status, polled.completed_at]).toEqual(['completed', idle.now.replace(/\.\d{3}Z$/, 'Z')]);
      expect((await admin.clock.advance({ until: 'idle' })).advanced_seconds).toBe(0);
      expect(await tenant.clock.advance(5)).not.toHaveProperty('advanced_seconds');
    } finally {
      await mock.close();
    }
  });
});
