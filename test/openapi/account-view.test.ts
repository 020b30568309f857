/**
 * Contract §5.4: `GET /openapi.json` with `Authorization: Bearer <key>` answers the document as that
 * key's account sees it (its deprecated operations flagged); without one, as the sandbox's own
 * activations decide. A key that does not authenticate gets the sandbox-wide document (never a 401).
 */
import { describe, expect, it } from 'vitest';
import { bearer, client, KEYS, makeApp, ACCOUNTS } from '../support/harness.js';

type Json = Record<string, any>;

/** The operation ids the document flags `deprecated`, sorted. */
function flagged(document: Json): string[] {
  const ids: string[] = [];
  for (const item of Object.values(document.paths as Json)) {
    for (const operation of Object.values(item as Json)) {
      if (operation && typeof operation === 'object' && operation.deprecated === true) ids.push(operation.operationId);
    }
  }
  return ids.sort();
}

async function activate(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<void> {
  const res = await api.post('/__admin/scenarios').send({ name: 'deprecated-operations', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('contract §5.4: /openapi.json as a key’s account sees it', () => {
  it('§5.4: a scenario scoped to one account flags its operation in that account’s document only', async () => {
    const app = makeApp();
    const api = client(app);
    await activate(api, { account_id: ACCOUNTS.free, operation_id: 'listExperiences' });

    const mine = await api.get('/openapi.json').set(bearer(KEYS.free));
    expect(mine.status).toBe(200);
    expect(flagged(mine.body)).toEqual(['listExperiences']);
    // The same account through its other key sees it too; another account does not.
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.freeReadOnly))).body)).toEqual(['listExperiences']);
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.paid))).body)).toEqual([]);
    // The answer depends on the key: a cache must key it by Authorization.
    expect(mine.headers.vary).toMatch(/Authorization/i);
  });

  it('§5.4: without a key, the sandbox-wide activations only', async () => {
    const api = client(makeApp());
    await activate(api, { account_id: ACCOUNTS.free, operation_id: 'listExperiences' });
    expect(flagged((await api.get('/openapi.json')).body)).toEqual([]);
    await activate(api, { operation_id: 'listApiKeys' });
    expect(flagged((await api.get('/openapi.json')).body)).toEqual(['listApiKeys']);
    // A keyed document holds the sandbox-wide flags too.
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.free))).body)).toEqual(['listApiKeys', 'listExperiences']);
  });

  it('§5.4: a scenario scoped to one key flags the document of that key, not of the account’s other keys', async () => {
    const app = makeApp();
    const api = client(app);
    const keyId = app.sandbox.world.store.findByToken(KEYS.free)!.key.id;
    await activate(api, { api_key_id: keyId, operation_id: 'getStatus' });
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.free))).body)).toEqual(['getStatus']);
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.freeReadOnly))).body)).toEqual([]);
  });

  it('§5.4: the flag matches the headers a request with that key gets', async () => {
    const app = makeApp();
    const api = client(app);
    await activate(api, { account_id: ACCOUNTS.paid, operation_id: 'listExperiences' });
    const answer = await api.get('/v1/experiences').set(bearer(KEYS.paid));
    expect(answer.headers.deprecation).toBeDefined();
    const other = await api.get('/v1/experiences').set(bearer(KEYS.free));
    expect(other.headers.deprecation).toBeUndefined();
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.paid))).body)).toEqual(['listExperiences']);
    expect(flagged((await api.get('/openapi.json').set(bearer(KEYS.free))).body)).toEqual([]);
  });

  it('an unknown, malformed, revoked or expired key gets the sandbox-wide document, 200, never a 401', async () => {
    const app = makeApp();
    const api = client(app);
    await activate(api, { account_id: ACCOUNTS.free, operation_id: 'listExperiences' });
    const keyId = app.sandbox.world.store.findByToken(KEYS.free)!.key.id;
    const sandboxWide = (await api.get('/openapi.json')).text;
    for (const authorization of ['Bearer cc_test_nobody_has_this', 'Basic abc', 'Bearer']) {
      const res = await api.get('/openapi.json').set('Authorization', authorization);
      expect([res.status, res.text === sandboxWide], authorization).toEqual([200, true]);
    }
    expect((await api.post(`/__admin/api_keys/${keyId}/revoke`)).status).toBe(200);
    const revoked = await api.get('/openapi.json').set(bearer(KEYS.free));
    expect([revoked.status, revoked.text === sandboxWide]).toEqual([200, true]);
  });

  it('documents with the same flags are one object, shared by every caller that sees them', () => {
    const app = makeApp();
    const none = () => false;
    expect(app.openapi.withDeprecated(none)).toBe(app.openapi.current());
    const one = app.openapi.withDeprecated((id) => id === 'getStatus');
    expect(app.openapi.withDeprecated((id) => id === 'getStatus')).toBe(one);
    expect(one).not.toBe(app.openapi.current());
  });
});
