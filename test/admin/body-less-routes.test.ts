/**
 * Contract §3: an admin route that takes no body refuses one with members, as every admin route
 * refuses members it does not know (400 `parameter_unknown` naming the first, in the envelope), and
 * does nothing. An empty body, `{}`, or no body and no content type still work. Otherwise anything
 * that can POST JSON to the sandbox (a webhook endpoint whose URL is the sandbox's own
 * `/__admin/reset`) acts on it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adminRouteDeclarations } from '../../src/admin/route-kit.js';
import { buildAdminRouter } from '../../src/admin/routes.js';
import type { MockServer } from '../../src/server.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp, startServer } from '../support/harness.js';
import { eventually } from '../support/eventually.js';

const EVENT_LIKE = { id: 'evt_1', object: 'event', type: 'api_key.created', data: { object: {} } };

const refused = (res: Parameters<typeof expectError>[0], param = 'id') => expectError(res, 'parameter_unknown', { param, api: false });

describe('contract §3.1, §3.2, §4.1: body-less admin routes refuse body members and do nothing', () => {
  it('contract §3.1: POST /__admin/reset with members is refused, and the sandbox is not reset', async () => {
    const app = makeApp();
    const made = await client(app).post('/__admin/accounts').send({});
    refused(await client(app).post('/__admin/reset').send(EVENT_LIKE));
    expect((await client(app).get(`/__admin/accounts/${made.body.account.id}`)).status).toBe(200);
  });

  it('contract §3.2: …/api_keys/{id}/revoke and …/expire with members are refused, and the key still authenticates', async () => {
    const app = makeApp();
    refused(await client(app).post('/__admin/api_keys/key_free_default/revoke').send(EVENT_LIKE));
    refused(await client(app).post('/__admin/api_keys/key_free_default/expire').send({ at: 'now' }), 'at');
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('contract §4.1: …/accounts/{id}/reset and DELETE …/accounts/{id} with members are refused, and the account keeps its keys', async () => {
    const app = makeApp();
    const key = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'later' });
    refused(await client(app).post(`/__admin/accounts/${ACCOUNTS.free}/reset`).send(EVENT_LIKE));
    refused(await client(app).delete(`/__admin/accounts/${ACCOUNTS.free}`).send({ force: true }), 'force');
    expect((await client(app).get('/v1/status').set(bearer(key.body.token))).status).toBe(200);
  });

  it('contract §3.1: an empty body, {}, whitespace, or no body and no content type still work', async () => {
    const app = makeApp();
    expect((await client(app).post('/__admin/reset')).status).toBe(200);
    expect((await client(app).post('/__admin/reset').send({})).status).toBe(200);
    expect((await client(app).post('/__admin/reset').set('Content-Type', 'application/json').send('  ')).status).toBe(200);
    expect(
      (await client(app).post('/__admin/api_keys/key_free_default/revoke').set('Content-Type', 'application/json').send('{}')).status,
    ).toBe(200);
  });
});

describe('contract §3.1, §4.3: a webhook endpoint pointing at the sandbox itself', () => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it("contract §3.1, §4.3: an endpoint whose URL is the sandbox's own /__admin/reset gets a 400, and the sandbox is not reset", async () => {
    mock = await startServer();
    const server = mock;
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const tenant = (await (await post('/__admin/accounts', {})).json()) as { account: { id: string } };
    const endpoint = await post('/__admin/webhook_endpoints', { account_id: tenant.account.id, url: `${server.url}/__admin/reset` });
    expect(endpoint.status).toBe(201);
    expect((await post('/__admin/events', { account_id: tenant.account.id, type: 'api_key.created' })).status).toBe(201);
    const attempts = async () => {
      const res = await fetch(`${server.url}/__admin/webhook_deliveries?account_id=${tenant.account.id}`);
      if (res.status !== 200) return [];
      const list = (await res.json()) as { data: Array<{ attempts: Array<{ status_code: number | null }> }> };
      return list.data.flatMap((delivery) => delivery.attempts);
    };
    await eventually(async () => expect(await attempts()).toHaveLength(1));
    expect((await attempts())[0]?.status_code).toBe(400);
    expect((await fetch(`${server.url}/__admin/accounts/${tenant.account.id}`)).status).toBe(200);
  });
});

describe('contract §3: refusal is the default of the admin route declaration', () => {
  it('contract §3: every admin route that declares no body refuses one with members (400 parameter_unknown), whatever its method', async () => {
    const declared = adminRouteDeclarations(buildAdminRouter());
    const bodyless = declared.filter((route) => !route.body && route.method !== 'get');
    // The known ones at least; routes added later are covered without being listed here.
    expect(bodyless.map((route) => `${route.method.toUpperCase()} ${route.path}`)).toEqual(
      expect.arrayContaining([
        'POST /reset',
        'POST /api_keys/:id/expire',
        'POST /api_keys/:id/revoke',
        'POST /accounts/:id/reset',
        'DELETE /accounts/:id',
        'DELETE /scenarios/:id',
        'DELETE /scenarios',
        'DELETE /requests',
        'DELETE /webhook_endpoints/:id',
      ]),
    );
    const app = makeApp();
    for (const route of declared.filter((declaration) => !declaration.body)) {
      const path = `/__admin${route.path.replace(/:[a-z_]+/g, 'nope')}`;
      const res = await client(app)[route.method](path).send({ unexpected: 1 });
      expect(res.status, `${route.method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_unknown', param: 'unexpected' });
    }
    // Routes that take a body declare it, and still read it.
    expect(declared.filter((route) => route.body).length).toBeGreaterThan(5);
  });
});
