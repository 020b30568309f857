/** Spec §4.1, §4.2, §2.2, §5.2: API keys. */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/operations/validation.js';
import { createApiKey, listApiKeys } from '../../src/resources/api-keys/operations.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';

const validKey = compileSchema(createApiKey.success.schema);
const validList = compileSchema(listApiKeys.success.schema);
const auth = bearer(KEYS.free);

describe('spec §4.1: create API key', () => {
  it('answers 201 with every §2.2 field, the secret in token and its last4', async () => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).send({ name: 'CI' });
    expect(res.status).toBe(201);
    expect(validKey(res.body), JSON.stringify(validKey.errors)).toBe(true);
    expect(res.body).toMatchObject({
      object: 'api_key',
      name: 'CI',
      token_type: 'api_key',
      last_used_at: null,
      expires_at: null,
      created_at: '2026-01-15T12:00:00Z',
    });
    expect(res.body.id).toMatch(/^key_[A-Za-z0-9]{24}$/);
    expect(res.body.token).toMatch(/^cc_test_[A-Za-z0-9]{32}$/);
    expect(res.body.last4).toBe(res.body.token.slice(-4));
  });

  it('names the key "Default" when created without a body, with {} or with name null', async () => {
    const app = makeApp();
    expect((await client(app).post('/v1/auth/keys').set(auth)).body.name).toBe('Default');
    expect((await client(app).post('/v1/auth/keys').set(auth).send({})).body.name).toBe('Default');
    expect((await client(app).post('/v1/auth/keys').set(auth).send({ name: null })).body.name).toBe('Default');
  });

  it('spec §4.1 (name is a string or null, no length given): a long name is stored as sent', async () => {
    const name = 'n'.repeat(300);
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).send({ name });
    expect([res.status, res.body.name]).toEqual([201, name]);
  });

  it('makes a key that authenticates as the same account at once', async () => {
    const app = makeApp();
    const created = await client(app).post('/v1/auth/keys').set(bearer(KEYS.paid)).send({ name: 'second' });
    const status = await client(app).get('/v1/status').set(bearer(created.body.token));
    expect(status.body.limits.rate_limit.tier).toBe('paid');
  });
});

describe('spec §4.2, §5.2: list API keys', () => {
  it('lists the account keys newest first with token null and last4 only', async () => {
    const app = makeApp();
    const created = await client(app).post('/v1/auth/keys').set(auth).send({ name: 'newest' });
    const res = await client(app).get('/v1/auth/keys').set(auth);
    expect(res.status).toBe(200);
    expect(validList(res.body), JSON.stringify(validList.errors)).toBe(true);
    expect(res.body.url).toBe('/v1/auth/keys');
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id, 'key_free_read_only', 'key_free_default']);
    for (const key of res.body.data) expect(key.token).toBeNull();
    expect(res.body.data[0].last4).toBe(created.body.token.slice(-4));
    expect(JSON.stringify(res.body)).not.toContain(created.body.token);
  });

  it('never shows another account its keys (tenancy)', async () => {
    const app = makeApp();
    await client(app).post('/v1/auth/keys').set(bearer(KEYS.paid)).send({ name: 'paid only' });
    const free = await client(app).get('/v1/auth/keys?limit=100').set(auth);
    expect(free.body.data.every((k: { name: string }) => k.name !== 'paid only')).toBe(true);
    expect(free.body.data.map((k: { id: string }) => k.id)).not.toContain('key_paid_default');
  });

  it('pages with limit and starting_after', async () => {
    const app = makeApp();
    for (let i = 0; i < 4; i++)
      await client(app)
        .post('/v1/auth/keys')
        .set(auth)
        .send({ name: `k${i}` });
    const first = await client(app).get('/v1/auth/keys?limit=2').set(auth);
    expect(first.body.data.map((k: { name: string }) => k.name)).toEqual(['k3', 'k2']);
    expect(first.body.has_more).toBe(true);
    const second = await client(app).get(`/v1/auth/keys?limit=2&starting_after=${first.body.data[1].id}`).set(auth);
    expect(second.body.data.map((k: { name: string }) => k.name)).toEqual(['k1', 'k0']);
  });

  it('shows keys made through the admin API to the account that owns them', async () => {
    const app = makeApp();
    const made = await client(app).post('/__admin/api_keys').send({ account_id: ACCOUNTS.free, name: 'from admin' });
    const list = await client(app).get('/v1/auth/keys').set(auth);
    expect(list.body.data[0]).toMatchObject({ id: made.body.id, name: 'from admin', token: null });
  });
});
