/**
 * Contract §4.1: tenants that do not disturb each other, time included. Each `it` pins
 * one sentence of the section; the parallel-workers test runs eight of them against one sandbox.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { createCrawl, pollJob } from '../support/jobs.js';
import { deferred } from '../support/protocol.js';
import { makeWidgetApp } from '../support/test-operations.js';
import { eventually } from '../support/eventually.js';

const FROZEN_MS = Date.parse(FROZEN_AT);
/** Admin answers carry no rate-limit headers. */
const expectAdminError = (
  res: Parameters<typeof expectError>[0],
  code: Parameters<typeof expectError>[1],
  expected: Parameters<typeof expectError>[2] = {},
) => expectError(res, code, { ...expected, api: false });
const iso = (ms: number) => new Date(ms).toISOString();

interface Tenant {
  id: string;
  token: string;
  keyId: string;
  account: Record<string, any>;
}

async function createTenant(app: MockApp, body: Record<string, unknown> = {}): Promise<Tenant> {
  const res = await client(app).post('/__admin/accounts').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.account.id, token: res.body.api_key.token, keyId: res.body.api_key.id, account: res.body.account };
}

async function advanceTenant(app: MockApp, id: string, seconds: number) {
  const res = await client(app).post(`/__admin/accounts/${id}/clock/advance`).send({ seconds });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function stateOf(app: MockApp, id: string) {
  const res = await client(app).get(`/__admin/accounts/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('contract §4.1: the clock of an account', () => {
  it('contract §4.1: "shared" is the default: the account follows the sandbox clock and says so', async () => {
    const app = makeApp();
    const tenant = await createTenant(app);
    expect(tenant.account.clock).toEqual({ now: iso(FROZEN_MS), mode: 'frozen', shared: true });
    await client(app).post('/__admin/clock/advance').send({ seconds: 90 });
    expect((await client(app).get(`/__admin/accounts/${tenant.id}/clock`)).body).toEqual({
      now: iso(FROZEN_MS + 90_000),
      mode: 'frozen',
      shared: true,
    });
  });

  it('contract §4.1: "frozen" is an own clock frozen at the sandbox clock\'s instant; the sandbox clock no longer moves it', async () => {
    const app = makeApp();
    await client(app).post('/__admin/clock/advance').send({ seconds: 10 });
    const tenant = await createTenant(app, { clock: 'frozen' });
    expect(tenant.account.clock).toEqual({ now: iso(FROZEN_MS + 10_000), mode: 'frozen', shared: false });
    await client(app).post('/__admin/clock/advance').send({ seconds: 3600 });
    await client(app).post('/__admin/clock').send({ now: '2030-01-01T00:00:00Z' });
    expect((await client(app).get(`/__admin/accounts/${tenant.id}/clock`)).body.now).toBe(iso(FROZEN_MS + 10_000));
  });

  it('contract §4.1: "running" is an own clock running from the sandbox clock\'s instant', async () => {
    let real = 1_000_000;
    const app = makeApp({ realTime: () => real });
    const tenant = await createTenant(app, { clock: 'running' });
    expect(tenant.account.clock).toEqual({ now: iso(FROZEN_MS), mode: 'running', shared: false });
    real += 5_000;
    expect((await client(app).get(`/__admin/accounts/${tenant.id}/clock`)).body).toEqual({
      now: iso(FROZEN_MS + 5_000),
      mode: 'running',
      shared: false,
    });
    // The sandbox clock is frozen: it did not move.
    expect((await client(app).get('/__admin/clock')).body.now).toBe(iso(FROZEN_MS));
  });

  it('contract §4.1: an ISO 8601 instant is an own clock frozen there, and the account is created and seeded at it', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: '2031-06-01T08:00:00+02:00' });
    expect(tenant.account.clock).toEqual({ now: '2031-06-01T06:00:00.000Z', mode: 'frozen', shared: false });
    expect(tenant.account.created_at).toBe('2031-06-01T06:00:00Z');
    const { state } = await stateOf(app, tenant.id);
    expect(state.api_keys[0].created_at).toBe('2031-06-01T06:00:00Z');
    for (const customer of state.customers) expect(Date.parse(customer.created_at)).toBeLessThanOrEqual(Date.parse('2031-06-01T06:00:00Z'));
  });

  it('contract §4.1: a clock that is none of the forms, or out of range, is refused with 422 naming `clock`', async () => {
    const app = makeApp();
    for (const clock of ['later', '2026-01-01T00:00:00', '', 7]) {
      const res = await client(app).post('/__admin/accounts').send({ clock });
      expect([400, 422], JSON.stringify(res.body)).toContain(res.status);
      expect(JSON.stringify(res.body.error)).toContain('clock');
    }
    expectAdminError(await client(app).post('/__admin/accounts').send({ clock: 'never' }), 'validation_failed', {
      param: 'clock',
      errors: { clock: [MESSAGES.accountClockSetting] },
    });
  });

  it('contract §4.1: the `account` object of every admin answer carries "clock": {now, mode, shared}', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen' });
    const clock = { now: iso(FROZEN_MS), mode: 'frozen', shared: false };
    expect(tenant.account.clock).toEqual(clock);
    expect((await stateOf(app, tenant.id)).account.clock).toEqual(clock);
    expect((await client(app).patch(`/__admin/accounts/${tenant.id}`).send({ plan: 'paid' })).body.account.clock).toEqual(clock);
    const list = (await client(app).get('/__admin/accounts')).body;
    expect(list.data.find((a: { id: string }) => a.id === tenant.id).clock).toEqual(clock);
    for (const account of list.data) expect(Object.keys(account.clock).sort()).toEqual(['mode', 'now', 'shared']);
    expect((await client(app).post(`/__admin/accounts/${tenant.id}/reset`)).body.account.clock).toEqual(clock);
  });

  it('contract §4.1: POST …/clock and …/clock/advance answer {now, mode, shared: false}; a shared account gets its own clock from that call, at the shared instant', async () => {
    const app = makeApp();
    const tenant = await createTenant(app);
    const advanced = await advanceTenant(app, tenant.id, 30);
    expect(advanced).toEqual({ now: iso(FROZEN_MS + 30_000), mode: 'frozen', shared: false });
    // From now on the sandbox clock leaves it alone.
    await client(app).post('/__admin/clock/advance').send({ seconds: 600 });
    expect((await client(app).get(`/__admin/accounts/${tenant.id}/clock`)).body.now).toBe(iso(FROZEN_MS + 30_000));

    const other = await createTenant(app);
    const set = await client(app).post(`/__admin/accounts/${other.id}/clock`).send({ now: '2027-03-01T00:00:00Z' });
    expect(set.body).toEqual({ now: '2027-03-01T00:00:00.000Z', mode: 'frozen', shared: false });
    const running = await client(app).post(`/__admin/accounts/${other.id}/clock`).send({ mode: 'running' });
    expect(running.body).toMatchObject({ mode: 'running', shared: false });
  });

  it('contract §4.1: a refused clock call leaves a shared account on the shared clock', async () => {
    const app = makeApp();
    const tenant = await createTenant(app);
    expect((await client(app).post(`/__admin/accounts/${tenant.id}/clock/advance`).send({ seconds: -1 })).status).toBe(422);
    expect((await client(app).post(`/__admin/accounts/${tenant.id}/clock`).send({ now: '10000-01-01T00:00:00Z' })).status).toBe(422);
    expect((await client(app).get(`/__admin/accounts/${tenant.id}/clock`)).body.shared).toBe(true);
    expectAdminError(await client(app).get('/__admin/accounts/acct_nope/clock'), 'resource_missing', { param: 'id' });
  });

  it('contract §4.1: when an account clock call answers, everything due in that account by its new time has happened', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen', plan: 'paid' });
    const job = await createCrawl(client(app), tenant.token, { url: 'https://example.com/', max_pages: 4 });
    expect(job.status).toBe('queued');
    await advanceTenant(app, tenant.id, 3600);
    const done = await pollJob(client(app), tenant.token, job.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(Date.parse(done.completed_at)).toBeLessThanOrEqual(FROZEN_MS + 3600_000);
    expect((await stateOf(app, tenant.id)).state.credits.used).toBe(done.credits_used);
  });
});

describe('contract §4.1: everything time-based of an account follows its own clock', () => {
  it('contract §4.1: timestamps in answers to its keys are on its clock', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: '2028-02-02T02:02:02Z' });
    const res = await client(app).post('/v1/auth/keys').set(bearer(tenant.token)).send({ name: 'ci' });
    expect(res.status).toBe(201);
    expect(res.body.created_at).toBe('2028-02-02T02:02:02Z');
    // A key of an account on the sandbox clock, at the same moment, reads the sandbox clock.
    const shared = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    expect(shared.body.created_at).toBe(FROZEN_AT);
  });

  it("contract §4.1: its keys' rate-limit windows follow its clock, and the windows of other accounts do not", async () => {
    const app = makeApp({ rateLimit: 'free=2,paid=2' });
    const own = await createTenant(app, { clock: 'frozen' });
    const status = (token: string) => client(app).get('/v1/status').set(bearer(token));
    for (const token of [own.token, own.token, KEYS.free, KEYS.free]) expect((await status(token)).status).toBe(200);
    expect((await status(own.token)).status).toBe(429);
    expect((await status(KEYS.free)).status).toBe(429);
    // The sandbox clock's next window frees the shared account, not the one with its own clock.
    await client(app).post('/__admin/clock/advance').send({ seconds: 60 });
    expect((await status(KEYS.free)).status).toBe(200);
    expect((await status(own.token)).status).toBe(429);
    await advanceTenant(app, own.id, 60);
    const fresh = await status(own.token);
    expect(fresh.status).toBe(200);
    expect(fresh.body.limits.rate_limit.resets_at).toBe('2026-01-15T12:02:00Z');
  });

  it('contract §4.1: the counters of the window move with an account that leaves the shared clock', async () => {
    const app = makeApp({ rateLimit: 'free=2,paid=2' });
    const tenant = await createTenant(app);
    const status = () => client(app).get('/v1/status').set(bearer(tenant.token));
    expect((await status()).status).toBe(200);
    expect((await status()).status).toBe(200);
    await advanceTenant(app, tenant.id, 1);
    expect((await status()).status).toBe(429);
  });

  it('contract §4.1: its keys expire by its clock', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen' });
    const key = await client(app).post('/__admin/api_keys').send({ account_id: tenant.id, expires_at: '2026-01-15T13:00:00Z' });
    const status = () => client(app).get('/v1/status').set(bearer(key.body.token));
    await client(app).post('/__admin/clock/advance').send({ seconds: 7200 });
    expect((await status()).status).toBe(200);
    await advanceTenant(app, tenant.id, 3600);
    expectError(await status(), 'authentication_required');
  });

  it('contract §4.1: its Idempotency-Key memory lasts 24 hours of its clock', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen' });
    const write = () =>
      client(app)
        .post('/v1/auth/keys')
        .set({ ...bearer(tenant.token), 'Idempotency-Key': 'k1' })
        .send({ name: 'once' });
    const first = await write();
    await client(app)
      .post('/__admin/clock/advance')
      .send({ seconds: 25 * 3600 });
    const replayed = await write();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body.id).toBe(first.body.id);
    await advanceTenant(app, tenant.id, 24 * 3600);
    const again = await write();
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('contract §4.1: the journal timestamps of its requests are on its clock; requests without a known key follow the sandbox clock', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: '2029-09-09T09:09:09Z' });
    await client(app).get('/v1/status').set(bearer(tenant.token));
    await client(app).get('/v1/status').set(bearer('cc_test_nobody'));
    const entries = (await client(app).get('/__admin/requests')).body.data;
    expect(entries[0]).toMatchObject({ account_id: null, timestamp: iso(FROZEN_MS) });
    expect(entries[1]).toMatchObject({ account_id: tenant.id, timestamp: '2029-09-09T09:09:09.000Z' });
  });

  it('contract §4.1: POST /__admin/clock moves the sandbox clock and every account that shares it, and no account with its own clock', async () => {
    const app = makeApp();
    const shared = await createTenant(app);
    const own = await createTenant(app, { clock: 'frozen' });
    await client(app).post('/__admin/clock').send({ now: '2026-05-05T05:05:05Z' });
    expect((await client(app).get(`/__admin/accounts/${shared.id}/clock`)).body.now).toBe('2026-05-05T05:05:05.000Z');
    expect((await client(app).get(`/__admin/accounts/${own.id}/clock`)).body.now).toBe(iso(FROZEN_MS));
  });
});

describe('contract §4.1: parallel workers', () => {
  const ADVANCES = [0, 0.5, 1.2, 1.6, 2, 3, 60, 3600];
  const URL = 'https://example.com/';

  /** One worker: its own tenant and clock, a crawl, its own advance, then its job as it sees it. */
  async function worker(app: MockApp, seconds: number) {
    const tenant = await createTenant(app, { clock: 'frozen', plan: 'paid' });
    const job = await createCrawl(client(app), tenant.token, { url: URL, max_pages: 8 });
    await advanceTenant(app, tenant.id, seconds);
    const seen = await pollJob(client(app), tenant.token, job.id);
    const { status, progress, started_at, completed_at, credits_used } = seen;
    return { tenant, job: { status, progress, started_at, completed_at, credits_used } };
  }

  it('contract §4.1: 8 concurrent workers, each advancing its own clock by a different amount, each see only their own job move', async () => {
    const app = makeApp();
    const results = await Promise.all(ADVANCES.map((seconds) => worker(app, seconds)));
    // Each worker's job is exactly what the same worker sees alone in a sandbox of its own.
    for (const [i, seconds] of ADVANCES.entries()) {
      const alone = await worker(makeApp(), seconds);
      expect(results[i]!.job, `worker advancing ${seconds} s`).toEqual(alone.job);
      expect((await client(app).get(`/__admin/accounts/${results[i]!.tenant.id}/clock`)).body.now).toBe(iso(FROZEN_MS + seconds * 1000));
    }
    expect(results[0]!.job.status).toBe('queued');
    expect(results[7]!.job.status).toBe('completed');
    expect(new Set(results.map((r) => r.job.progress)).size).toBeGreaterThan(2);
    // Nobody moved the sandbox clock.
    expect((await client(app).get('/__admin/clock')).body.now).toBe(iso(FROZEN_MS));
  });
});

describe('contract §4.1: POST /__admin/accounts/{id}/reset', () => {
  it('contract §4.1: restores the same records with the same ids and values, the same keys and tokens; keys created later answer 401', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen', plan: 'paid' });
    const born = await stateOf(app, tenant.id);
    const later = await client(app).post('/v1/auth/keys').set(bearer(tenant.token)).send({ name: 'later' });
    const adminKey = await client(app).post('/__admin/api_keys').send({ account_id: tenant.id });
    const discount = born.state.discounts[0];
    expect((await client(app).delete(`/v1/discounts/${discount.id}`).set(bearer(tenant.token))).status).toBe(200);
    await createCrawl(client(app), tenant.token, { url: 'https://example.com/', max_pages: 2 });
    await client(app).patch(`/__admin/accounts/${tenant.id}`).send({ plan: 'free' });
    await advanceTenant(app, tenant.id, 7200);

    const reset = await client(app).post(`/__admin/accounts/${tenant.id}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ account: born.account });
    const after = await stateOf(app, tenant.id);
    // last_used_at of the original key moved with the requests above: it is restored too.
    expect(after).toEqual(born);
    expect((await client(app).get('/v1/status').set(bearer(tenant.token))).status).toBe(200);
    expectError(await client(app).get('/v1/status').set(bearer(later.body.token)), 'authentication_required');
    expectError(await client(app).get('/v1/status').set(bearer(adminKey.body.token)), 'authentication_required');
  });

  it('contract §4.1: no idempotency records, fresh rate-limit counters, no scenarios and no journal entries of it afterwards; other accounts untouched', async () => {
    const app = makeApp({ rateLimit: 'free=3,paid=3' });
    const tenant = await createTenant(app, { clock: 'frozen' });
    const other = await createTenant(app);
    const write = (t: Tenant) =>
      client(app)
        .post('/v1/auth/keys')
        .set({ ...bearer(t.token), 'Idempotency-Key': 'same' })
        .send({ name: 'x' });
    await write(tenant);
    const otherFirst = await write(other);
    await client(app).post('/__admin/scenarios').send({ name: 'server-error', account_id: tenant.id });
    await client(app).post('/__admin/scenarios').send({ name: 'server-error', api_key_id: tenant.keyId });
    const otherScenario = await client(app)
      .post('/__admin/scenarios')
      .send({ name: 'server-error', account_id: other.id, operation_id: 'getJob' });
    await client(app).get('/v1/status').set(bearer(tenant.token));

    await client(app).post(`/__admin/accounts/${tenant.id}/reset`);

    expect((await client(app).get(`/__admin/requests?account_id=${tenant.id}`)).body.data).toEqual([]);
    expect((await client(app).get(`/__admin/requests?account_id=${other.id}`)).body.data).toHaveLength(1);
    expect((await client(app).get('/__admin/scenarios')).body.active.map((a: { id: string }) => a.id)).toEqual([otherScenario.body.id]);
    const status = await client(app).get('/v1/status').set(bearer(tenant.token));
    expect(status.status).toBe(200);
    expect(status.body.limits.rate_limit.remaining).toBe(2);
    const rerun = await write(tenant);
    expect(rerun.status).toBe(201);
    expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    const otherAgain = await write(other);
    expect(otherAgain.headers['idempotent-replayed']).toBe('true');
    expect(otherAgain.body.id).toBe(otherFirst.body.id);
  });

  it('contract §4.1: its own clock goes back to its creation instant (frozen) or restarts from it (running)', async () => {
    let real = 0;
    const app = makeApp({ realTime: () => real });
    const frozen = await createTenant(app, { clock: 'frozen' });
    const running = await createTenant(app, { clock: 'running' });
    const shared = await createTenant(app);
    await advanceTenant(app, frozen.id, 500);
    await advanceTenant(app, shared.id, 500);
    real += 9_000;
    await client(app).post(`/__admin/accounts/${frozen.id}/reset`);
    await client(app).post(`/__admin/accounts/${running.id}/reset`);
    await client(app).post(`/__admin/accounts/${shared.id}/reset`);
    expect((await client(app).get(`/__admin/accounts/${frozen.id}/clock`)).body).toEqual({
      now: iso(FROZEN_MS),
      mode: 'frozen',
      shared: false,
    });
    expect((await client(app).get(`/__admin/accounts/${running.id}/clock`)).body).toEqual({
      now: iso(FROZEN_MS),
      mode: 'running',
      shared: false,
    });
    real += 2_000;
    expect((await client(app).get(`/__admin/accounts/${running.id}/clock`)).body.now).toBe(iso(FROZEN_MS + 2_000));
    // Created on the shared clock: back on it.
    expect((await client(app).get(`/__admin/accounts/${shared.id}/clock`)).body.shared).toBe(true);
  });

  it('contract §4.1: a fixture account returns to its state at boot, with its documented key', async () => {
    const app = makeApp();
    const booted = await stateOf(app, 'acct_free_default');
    await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'tmp' });
    await client(app).post(`/__admin/accounts/acct_free_default/reset`);
    expect(await stateOf(app, 'acct_free_default')).toEqual(booted);
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    expectAdminError(await client(app).post('/__admin/accounts/acct_nope/reset'), 'resource_missing', { param: 'id' });
  });

  it('contract §4.1: resetting one account draws no ids: the next ids are those of a sandbox that never reset it', async () => {
    const run = async (resetFirst: boolean) => {
      const app = makeApp();
      const a = await createTenant(app);
      if (resetFirst) await client(app).post(`/__admin/accounts/${a.id}/reset`);
      const b = await createTenant(app);
      return (await stateOf(app, b.id)).state;
    };
    expect(await run(true)).toEqual(await run(false));
  });
});

describe('contract §4.1: DELETE /__admin/accounts/{id}', () => {
  it('contract §4.1: answers {id, object, deleted}; its keys answer 401, its records, jobs, scenarios, idempotency records and journal entries are gone', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen', plan: 'paid' });
    const other = await createTenant(app);
    await createCrawl(client(app), tenant.token, { url: 'https://example.com/', max_pages: 2 });
    await client(app)
      .post('/v1/auth/keys')
      .set({ ...bearer(tenant.token), 'Idempotency-Key': 'k' })
      .send({});
    await client(app).post('/__admin/scenarios').send({ name: 'server-error', account_id: tenant.id });
    await client(app).get('/v1/status').set(bearer(other.token));

    const res = await client(app).delete(`/__admin/accounts/${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: tenant.id, object: 'account', deleted: true });

    expectError(await client(app).get('/v1/status').set(bearer(tenant.token)), 'authentication_required');
    expectAdminError(await client(app).get(`/__admin/accounts/${tenant.id}`), 'resource_missing', { param: 'id' });
    expect((await client(app).get('/__admin/scenarios')).body.active).toEqual([]);
    expect((await client(app).get(`/__admin/requests?account_id=${tenant.id}`)).body.data).toEqual([]);
    expect((await client(app).get(`/__admin/requests?account_id=${other.id}`)).body.data).toHaveLength(1);
    expect(app.sandbox.world.idempotency.size).toBe(0);
    expect(app.sandbox.world.tenants.has(tenant.id)).toBe(false);
    expect((await client(app).get('/__admin/accounts')).body.data.map((a: { id: string }) => a.id)).not.toContain(tenant.id);
    expect((await stateOf(app, other.id)).account.id).toBe(other.id);
  });

  it('contract §4.1: an unknown id answers 404', async () => {
    const app = makeApp();
    expectAdminError(await client(app).delete('/__admin/accounts/acct_unknown'), 'resource_missing', { param: 'id' });
    const tenant = await createTenant(app);
    await client(app).delete(`/__admin/accounts/${tenant.id}`);
    expectAdminError(await client(app).delete(`/__admin/accounts/${tenant.id}`), 'resource_missing', { param: 'id' });
  });
});

describe('contract §4.1: requests in flight', () => {
  for (const action of ['reset', 'delete'] as const) {
    it(`contract §4.1: a request of the account still running when it is ${action === 'reset' ? 'reset' : 'deleted'} leaves no journal entry`, async () => {
      const { app, controls } = makeWidgetApp();
      const tenant = await createTenant(app);
      const gate = deferred();
      controls.gate = gate.promise;
      const held = client(app).post('/v1/test/widgets').set(bearer(tenant.token)).send({ name: 'held' });
      const sent = held.then((res) => res);
      await eventually(() => expect(controls.calls).toBe(1));
      if (action === 'reset') await client(app).post(`/__admin/accounts/${tenant.id}/reset`);
      else await client(app).delete(`/__admin/accounts/${tenant.id}`);
      gate.resolve();
      expect((await sent).status).toBe(201);
      expect((await client(app).get(`/__admin/requests?account_id=${tenant.id}`)).body.data).toEqual([]);
    });
  }
});

describe('contract §4.1: GET /__admin/accounts', () => {
  it('contract §4.1: {object: "list", data, has_more} with `limit` and `starting_after`, in creation order', async () => {
    const app = makeApp();
    const made = [await createTenant(app), await createTenant(app), await createTenant(app)];
    const all = (await client(app).get('/__admin/accounts')).body;
    expect(all).toMatchObject({ object: 'list', has_more: false });
    const ids = all.data.map((a: { id: string }) => a.id);
    expect(ids.slice(-3)).toEqual(made.map((t) => t.id));
    const first = (await client(app).get('/__admin/accounts?limit=2')).body;
    expect(first).toMatchObject({ object: 'list', has_more: true });
    expect(first.data.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 2));
    const next = (await client(app).get(`/__admin/accounts?limit=2&starting_after=${ids[1]}`)).body;
    expect(next.data.map((a: { id: string }) => a.id)).toEqual(ids.slice(2, 4));
    expectAdminError(await client(app).get('/__admin/accounts?starting_after=acct_nope'), 'bad_request', { param: 'starting_after' });
    expectAdminError(await client(app).get('/__admin/accounts?limit=0'), 'bad_request', { param: 'limit' });
  });
});

describe('contract §4.1: the sandbox reset and determinism', () => {
  it('contract §4.1: POST /__admin/reset keeps its meaning: created accounts and their clocks are gone', async () => {
    const app = makeApp();
    const tenant = await createTenant(app, { clock: 'frozen' });
    await client(app).post('/__admin/reset');
    expectAdminError(await client(app).get(`/__admin/accounts/${tenant.id}/clock`), 'resource_missing', { param: 'id' });
    expect(app.sandbox.world.tenants.has(tenant.id)).toBe(false);
  });

  it('same seed and the same requests across accounts, resets and deletes give the same bytes', async () => {
    const run = async () => {
      const app = makeApp({ seed: 'tenants' });
      const bodies: string[] = [];
      const a = await createTenant(app, { clock: 'frozen' });
      const b = await createTenant(app, { clock: '2030-01-01T00:00:00Z' });
      bodies.push(JSON.stringify(await createCrawl(client(app), a.token, { url: 'https://example.com/', max_pages: 3 })));
      await advanceTenant(app, a.id, 5);
      await client(app).post(`/__admin/accounts/${b.id}/reset`);
      bodies.push((await client(app).post('/v1/auth/keys').set(bearer(b.token)).send({ name: 'n' })).text);
      await client(app).delete(`/__admin/accounts/${a.id}`);
      const c = await createTenant(app);
      bodies.push(JSON.stringify(await stateOf(app, c.id)), JSON.stringify(await stateOf(app, b.id)));
      // Each supertest call listens on its own port, which the journal shows in the Host header (contract §5.3).
      bodies.push((await client(app).get('/__admin/requests')).text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'));
      return bodies;
    };
    expect(await run()).toEqual(await run());
  });
});
