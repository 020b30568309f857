/** Contract §3.1–§3.3: health, reset, accounts and keys, the clock, the admin token. */
import { describe, expect, it } from 'vitest';
import { recordBytes } from '../../src/store/record-meter.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';

const CONTRACT_COLLECTIONS = [
  'api_keys',
  'forms',
  'form_submissions',
  'customers',
  'deliveries',
  'inboxes',
  'messages',
  'experiences',
  'price_variants',
  'grants',
  'discounts',
  'event_sessions',
  'ad_destinations',
  'conversions',
  'jobs',
];

describe('contract §3.1: health and reset', () => {
  it('answers GET /__admin/health with {"status":"ok"}', async () => {
    const res = await client(makeApp()).get('/__admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('returns accounts, keys, records, counters and the clock to the boot state on reset', async () => {
    const app = makeApp();
    const boot = (await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`)).body;
    const made = await client(app).post('/__admin/accounts').send({ plan: 'paid' });
    await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'temp' });
    await client(app).post('/__admin/api_keys/key_free_default/revoke');
    await client(app).post('/__admin/clock/advance').send({ seconds: 3600 });
    await client(app).patch(`/__admin/accounts/${ACCOUNTS.free}`).send({ plan: 'paid' });

    expect((await client(app).post('/__admin/reset')).status).toBe(200);

    // Request ids restart too: the first request after a reset is the first of a fresh boot.
    const status = await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(status.headers['request-id']).toBe('req_000000000001');
    expect(status.status).toBe(200);
    expect(status.body.limits.rate_limit).toMatchObject({ tier: 'free', remaining: 599 });
    expect((await client(app).get(`/__admin/accounts/${made.body.account.id}`)).status).toBe(404);
    expect((await client(app).get('/__admin/clock')).body).toEqual({ now: '2026-01-15T12:00:00.000Z', mode: 'frozen' });
    const afterReset = (await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`)).body;
    // last_used_at moved with the status call above, and the record budget counts what it added;
    // everything else is exactly as booted.
    const used = afterReset.state.api_keys.find((k: { id: string }) => k.id === 'key_free_default');
    const usedBytes = recordBytes(used);
    used.last_used_at = null;
    expect(afterReset.record_bytes).toBe(boot.record_bytes + usedBytes - recordBytes(used));
    afterReset.record_bytes = boot.record_bytes;
    expect(afterReset).toEqual(boot);
  });
});

describe('contract §3.2: accounts and keys', () => {
  it('creates an isolated, populated account with a working key', async () => {
    const app = makeApp();
    const res = await client(app).post('/__admin/accounts').send({ plan: 'paid' });
    expect(res.status).toBe(201);
    expect(res.body.account).toMatchObject({ object: 'account', plan: 'paid' });
    expect(res.body.account.id).toMatch(/^acct_[A-Za-z0-9]{24}$/);
    expect(res.body.api_key.token).toMatch(/^cc_test_/);
    const status = await client(app).get('/v1/status').set(bearer(res.body.api_key.token));
    expect(status.body.limits.rate_limit.tier).toBe('paid');
    const keys = await client(app).get('/v1/auth/keys').set(bearer(res.body.api_key.token));
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([res.body.api_key.id]);
  });

  it('defaults the plan to free', async () => {
    const res = await client(makeApp()).post('/__admin/accounts').send({});
    expect(res.body.account.plan).toBe('free');
  });

  it('shows every collection of contract §3.2 in the state snapshot, records with ids, keys without secrets', async () => {
    const app = makeApp();
    const made = await client(app).post('/__admin/accounts').send({ plan: 'free' });
    const res = await client(app).get(`/__admin/accounts/${made.body.account.id}`);
    expect(res.status).toBe(200);
    expect(res.body.account.id).toBe(made.body.account.id);
    for (const name of CONTRACT_COLLECTIONS) {
      expect(Array.isArray(res.body.state[name]), name).toBe(true);
      for (const record of res.body.state[name]) expect(typeof record.id).toBe('string');
    }
    expect(res.body.state.credits).toEqual({ balance: 1000, used: 0 });
    expect(res.body.state.customers.length).toBeGreaterThan(0);
    expect(JSON.stringify(res.body.state.api_keys)).not.toContain(made.body.api_key.token);
  });

  it('answers an unknown account with 404 in the envelope', async () => {
    expectError(await client(makeApp()).get('/__admin/accounts/acct_nope'), 'resource_missing', {
      api: false,
      param: 'id',
      message: "No such account: 'acct_nope'.",
    });
  });

  it('validates the plan of PATCH /__admin/accounts/{id}', async () => {
    const res = await client(makeApp()).patch(`/__admin/accounts/${ACCOUNTS.free}`).send({ plan: 'gold' });
    expectError(res, 'validation_failed', { api: false, param: 'plan', errors: { plan: ['must be one of: free, paid'] } });
  });

  it('creates keys for an account, and 404s for an unknown one', async () => {
    const app = makeApp();
    const res = await client(app).post('/__admin/api_keys').send({ account_id: ACCOUNTS.paid, name: 'worker-1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'api_key', name: 'worker-1', access: 'full' });
    expectError(await client(app).post('/__admin/api_keys').send({ account_id: 'acct_missing' }), 'resource_missing', {
      api: false,
      param: 'account_id',
      message: "No such account: 'acct_missing'.",
    });
  });

  it('expires and revokes keys by id, and 404s for an unknown key', async () => {
    const app = makeApp();
    const expired = await client(app).post('/__admin/api_keys/key_paid_default/expire');
    expect(expired.status).toBe(200);
    expect(expired.body.expires_at).toBe('2026-01-15T12:00:00Z');
    expectError(await client(app).post('/__admin/api_keys/key_nope/revoke'), 'resource_missing', {
      api: false,
      param: 'id',
      message: "No such API key: 'key_nope'.",
    });
  });

  it('makes new accounts from another fixture template when asked, and refuses an unknown fixture with 422', async () => {
    const app = makeApp();
    const ok = await client(app).post('/__admin/accounts').send({ fixture: 'default' });
    expect(ok.status).toBe(201);
    const bad = await client(app).post('/__admin/accounts').send({ fixture: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.param).toBe('fixture');
  });
});

describe('contract §3.3: the clock', () => {
  it('reports, freezes, sets and advances the virtual clock', async () => {
    const app = makeApp();
    expect((await client(app).get('/__admin/clock')).body).toEqual({ now: '2026-01-15T12:00:00.000Z', mode: 'frozen' });
    expect((await client(app).post('/__admin/clock/advance').send({ seconds: 90.5 })).body).toEqual({
      now: '2026-01-15T12:01:30.500Z',
      mode: 'frozen',
    });
    expect((await client(app).post('/__admin/clock').send({ now: '2027-01-01T00:00:00Z' })).body).toEqual({
      now: '2027-01-01T00:00:00.000Z',
      mode: 'frozen',
    });
  });

  it('runs from the set instant when switched to running', async () => {
    let real = 1_000_000;
    const app = makeApp({ realTime: () => real });
    await client(app).post('/__admin/clock').send({ mode: 'running' }).expect(200);
    real += 5000;
    expect((await client(app).get('/__admin/clock')).body).toEqual({ now: '2026-01-15T12:00:05.000Z', mode: 'running' });
    await client(app).post('/__admin/clock/advance').send({ seconds: 10 });
    real += 1000;
    expect((await client(app).get('/__admin/clock')).body.now).toBe('2026-01-15T12:00:16.000Z');
  });

  it('refuses a negative advance and a bad mode with 422', async () => {
    const app = makeApp();
    expectError(await client(app).post('/__admin/clock/advance').send({ seconds: -1 }), 'validation_failed', {
      api: false,
      param: 'seconds',
      errors: { seconds: ['must be >= 0'] },
    });
    expectError(await client(app).post('/__admin/clock').send({ mode: 'paused' }), 'validation_failed', {
      api: false,
      param: 'mode',
      errors: { mode: ['must be one of: running, frozen'] },
    });
    expectError(await client(app).post('/__admin/clock/advance').send({}), 'parameter_missing', {
      api: false,
      param: 'seconds',
      message: 'Missing required parameter: seconds.',
    });
  });

  it('stamps timestamps in responses with the virtual time', async () => {
    const app = makeApp();
    await client(app).post('/__admin/clock').send({ now: '2030-06-01T08:00:00Z' });
    const key = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({});
    expect(key.body.created_at).toBe('2030-06-01T08:00:00Z');
  });

  it('starts frozen at the given instant', () => {
    expect(makeApp().sandbox.world.clock.snapshot()).toEqual({ now: new Date(FROZEN_AT).toISOString(), mode: 'frozen' });
  });
});

describe('contract §3: the admin token', () => {
  it('answers 401 in the envelope without the right X-Admin-Token, and serves with it', async () => {
    const app = makeApp({ adminToken: 's3cret' });
    expectError(await client(app).get('/__admin/health'), 'authentication_required', { api: false, message: /X-Admin-Token/ });
    expectError(await client(app).get('/__admin/health').set('X-Admin-Token', 'wrong'), 'authentication_required', {
      api: false,
      message: /X-Admin-Token/,
    });
    expect((await client(app).get('/__admin/health').set('X-Admin-Token', 's3cret')).status).toBe(200);
  });

  it('is never rate-limited or counted', async () => {
    const app = makeApp({ rateLimit: 'free=1,paid=1' });
    for (let i = 0; i < 5; i++) {
      const res = await client(app).get('/__admin/health');
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });
});
