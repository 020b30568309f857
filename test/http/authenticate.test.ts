/** Spec §5: authentication and permission. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';

describe('spec §5.1, §5.3: 401 authentication_required', () => {
  it.each([
    ['missing', undefined, MESSAGES.authMissing],
    ['not Bearer', 'Basic dXNlcjpwYXNz', MESSAGES.authMalformed],
    ['Bearer without a token', 'Bearer ', MESSAGES.authMalformed],
    ['a token with spaces', 'Bearer two words', MESSAGES.authMalformed],
    ['unknown', 'Bearer cc_test_not_a_real_key', MESSAGES.authUnknown],
  ])('answers a %s credential with 401 on every operation', async (_label, header, message) => {
    const app = makeApp();
    for (const [method, path] of [
      ['get', '/v1/status'],
      ['get', '/v1/auth/keys'],
      ['post', '/v1/auth/keys'],
    ] as const) {
      const req = client(app)[method](path);
      if (header !== undefined) req.set('Authorization', header);
      expectError(await req, 'authentication_required', { message });
    }
  });

  it('answers a revoked key with 401 and keeps other keys working', async () => {
    const app = makeApp();
    await client(app).post('/__admin/api_keys/key_free_default/revoke').expect(200);
    expectError(await client(app).get('/v1/status').set(bearer(KEYS.free)), 'authentication_required', { message: MESSAGES.authRevoked });
    expect((await client(app).get('/v1/status').set(bearer(KEYS.paid))).status).toBe(200);
  });

  it('answers an expired key with 401 (expired through the admin API)', async () => {
    const app = makeApp();
    await client(app).post('/__admin/api_keys/key_free_default/expire').expect(200);
    expectError(await client(app).get('/v1/status').set(bearer(KEYS.free)), 'authentication_required', { message: MESSAGES.authExpired });
  });

  it('expires a key when the virtual clock reaches its expires_at', async () => {
    const app = makeApp();
    const created = await client(app)
      .post('/__admin/api_keys')
      .send({ account_id: ACCOUNTS.free, expires_at: '2026-01-15T13:00:00Z' })
      .expect(201);
    const key = bearer(created.body.token);
    expect((await client(app).get('/v1/status').set(key)).status).toBe(200);
    await client(app).post('/__admin/clock/advance').send({ seconds: 3599 }).expect(200);
    expect((await client(app).get('/v1/status').set(key)).status).toBe(200);
    await client(app).post('/__admin/clock/advance').send({ seconds: 1 }).expect(200);
    expectError(await client(app).get('/v1/status').set(key), 'authentication_required', { message: MESSAGES.authExpired });
  });
});

describe('spec §5.4: 403 forbidden', () => {
  it('lets a read-only key read but answers 403 forbidden on a write, creating nothing', async () => {
    const app = makeApp();
    const ro = bearer(KEYS.freeReadOnly);
    const before = (await client(app).get('/v1/auth/keys').set(ro).expect(200)).body.data.length;
    expectError(await client(app).post('/v1/auth/keys').set(ro).send({ name: 'nope' }), 'forbidden', { message: MESSAGES.readOnlyKey });
    expect((await client(app).get('/v1/auth/keys').set(ro)).body.data.length).toBe(before);
  });

  it('applies to read-only keys made through the admin API', async () => {
    const app = makeApp();
    const created = await client(app).post('/__admin/api_keys').send({ account_id: ACCOUNTS.paid, access: 'read_only' }).expect(201);
    expect(created.body.access).toBe('read_only');
    expectError(await client(app).post('/v1/auth/keys').set(bearer(created.body.token)).send({}), 'forbidden');
  });
});

describe('spec §5: last_used_at', () => {
  it('records when a key was last used, on the virtual clock', async () => {
    const app = makeApp();
    await client(app).post('/__admin/clock/advance').send({ seconds: 90 });
    await client(app).get('/v1/status').set(bearer(KEYS.paid)).expect(200);
    const keys = await client(app).get('/v1/auth/keys').set(bearer(KEYS.paid));
    expect(keys.body.data.find((k: { id: string }) => k.id === 'key_paid_default').last_used_at).toBe('2026-01-15T12:01:30Z');
  });
});
