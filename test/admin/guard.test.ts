/**
 * Contract §3: what counts as an admin path, who may call it, and how
 * an unknown one is answered. In-process (supertest sends `Host: 127.0.0.1:<port>`).
 */
import { describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/admin/client.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { connectToMock, mockServerSetup, PROVIDE_KEY } from '../../src/vitest.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp, startServer } from '../support/harness.js';

const TOKEN = 's3cret';

/** Admin calls that change state, each under another case of the prefix. */
const OTHER_CASES: Array<[method: 'get' | 'post' | 'delete', path: string]> = [
  ['post', '/__ADMIN/reset'],
  ['post', '/__Admin/accounts'],
  ['get', '/__aDmin/accounts/acct_free_default'],
  ['delete', '/__ADMIN/requests'],
  ['post', '/__Admin/api_keys/key_free_default/revoke'],
  ['post', '/__ADMIN/api_keys/key_free_default/expire'],
  ['post', '/__admiN/clock/advance'],
  ['post', '/__ADMIN/scenarios'],
];

describe('contract §3: /__admin is matched exactly, case included', () => {
  it.each(OTHER_CASES)('answers %s %s with 404 in the envelope and changes nothing (admin token set)', async (method, path) => {
    const app = makeApp({ adminToken: TOKEN });
    const res = await client(app)[method](path).send({ seconds: 3600, name: 'server-error', plan: 'paid' });
    expectError(res, 'resource_missing', { api: false, message: MESSAGES.unknownRoute(method.toUpperCase(), path) });
    // The key still works, the clock has not moved, no scenario is active, no account was added.
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    const admin = (p: string) => client(app).get(p).set('X-Admin-Token', TOKEN);
    expect((await admin('/__admin/clock')).body.now).toBe('2026-01-15T12:00:00.000Z');
    expect((await admin('/__admin/scenarios')).body.active).toEqual([]);
    expect((await admin('/__admin/accounts')).body.data.map((a: { id: string }) => a.id)).toEqual([ACCOUNTS.free, ACCOUNTS.paid]);
  });

  it('answers another case of the prefix with 404 without an admin token too', async () => {
    const res = await client(makeApp()).get('/__Admin/health');
    expectError(res, 'resource_missing', { api: false });
  });

  it('answers /V1 (another case of the API prefix) with 404, never routing it', async () => {
    const res = await client(makeApp()).get('/V1/status').set(bearer(KEYS.free));
    expectError(res, 'resource_missing', { api: false, message: MESSAGES.unknownRoute('GET', '/V1/status') });
  });

  it('still needs the exact token on the exact prefix: wrong, longer and shorter tokens get 401', async () => {
    const app = makeApp({ adminToken: TOKEN });
    for (const token of ['s3creT', 's3cret!', 's3cre', '']) {
      const res = await client(app).post('/__admin/reset').set('X-Admin-Token', token);
      expectError(res, 'authentication_required', { api: false });
    }
    expect((await client(app).post('/__admin/reset').set('X-Admin-Token', TOKEN)).status).toBe(200);
  });
});

describe('an unknown admin path is a 404, not a 405 with an empty Allow', () => {
  it.each(['/__admin', '/__admin/', '/__admin/nope', '/__admin//health', '/__admin/health/', '/__admin/accounts/acct_free_default/nope'])(
    'answers GET %s with 404 and no Allow header',
    async (path) => {
      const res = await client(makeApp()).get(path);
      expectError(res, 'resource_missing', { api: false, message: MESSAGES.unknownRoute('GET', path) });
      expect(res.headers.allow).toBeUndefined();
    },
  );

  it('answers a known admin path with another method 405 and the methods it has', async () => {
    const res = await client(makeApp()).delete('/__admin/health');
    expectError(res, 'method_not_allowed', { api: false });
    expect(res.headers.allow).toBe('HEAD, GET');
  });
});

describe('contract §3: the admin API refuses web pages of other sites', () => {
  it.each(['http://evil.example', 'https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost.evil.example'])(
    'refuses a request with Origin %s with 403 and changes nothing',
    async (origin) => {
      const app = makeApp();
      const res = await client(app).post('/__admin/accounts').set('Origin', origin);
      expectError(res, 'cross_site_request', { api: false, message: MESSAGES.crossSiteOrigin(origin) });
      expect((await client(app).get('/__admin/accounts')).body.data).toHaveLength(2);
    },
  );

  it('refuses a foreign Origin before asking for the admin token', async () => {
    const res = await client(makeApp({ adminToken: TOKEN }))
      .post('/__admin/reset')
      .set('Origin', 'http://evil.example')
      .set('X-Admin-Token', TOKEN);
    expectError(res, 'cross_site_request', { api: false });
  });

  it("accepts the sandbox's own origin (the dashboard's fetches): http:// or https:// and the request's Host", async () => {
    const app = makeApp();
    const own = await client(app).post('/__admin/accounts').set('Host', 'localhost:4010').set('Origin', 'http://localhost:4010');
    expect(own.status).toBe(201);
    const tls = await client(app).post('/__admin/accounts').set('Host', 'localhost:4010').set('Origin', 'https://LOCALHOST:4010');
    expect(tls.status).toBe(201);
  });

  it.each(['evil.example', 'evil.example:4010', '127.0.0.1.evil.example', 'localhost.evil.example:4010'])(
    'bound to loopback (the default), refuses Host %s with 403 (DNS rebinding)',
    async (host) => {
      const app = makeApp();
      const res = await client(app).post('/__admin/reset').set('Host', host);
      expectError(res, 'cross_site_request', { api: false, message: MESSAGES.crossSiteHost(host) });
    },
  );

  it.each(['localhost', 'localhost:4010', 'LOCALHOST:4010', '127.0.0.1', '127.1.2.3:80', '[::1]:4010', '[::1]', '[::ffff:127.0.0.1]:4010'])(
    'bound to loopback, accepts the loopback Host %s',
    async (host) => {
      expect((await client(makeApp()).get('/__admin/health').set('Host', host)).status).toBe(200);
    },
  );

  it('bound to loopback, accepts a Host listed in allowedHosts (with or without a port)', async () => {
    const app = makeApp({ allowedHosts: ['commerce', 'mock.internal:8080'] });
    expect((await client(app).get('/__admin/health').set('Host', 'commerce:4010')).status).toBe(200);
    expect((await client(app).get('/__admin/health').set('Host', 'Commerce')).status).toBe(200);
    expect((await client(app).get('/__admin/health').set('Host', 'mock.internal:8080')).status).toBe(200);
    expectError(await client(app).get('/__admin/health').set('Host', 'mock.internal:9090'), 'cross_site_request', { api: false });
    expect((await client(app).get('/__admin/health').set('Host', 'localhost:4010')).status).toBe(200);
  });

  it('bound to all interfaces (the Docker image), accepts any Host, so a CI service name needs no setting', async () => {
    const app = makeApp({ host: '0.0.0.0' });
    expect((await client(app).post('/__admin/reset').set('Host', 'commerce:4010')).status).toBe(200);
    // An Origin is still checked.
    expectError(
      await client(app).post('/__admin/reset').set('Host', 'commerce:4010').set('Origin', 'http://evil.example'),
      'cross_site_request',
      { api: false },
    );
    expect((await client(app).post('/__admin/reset').set('Host', 'commerce:4010').set('Origin', 'http://commerce:4010')).status).toBe(200);
  });

  it('bound to all interfaces with allowedHosts set, accepts only those and loopback names', async () => {
    const app = makeApp({ host: '0.0.0.0', allowedHosts: ['commerce'] });
    expect((await client(app).get('/__admin/health').set('Host', 'commerce:4010')).status).toBe(200);
    expect((await client(app).get('/__admin/health').set('Host', '127.0.0.1:4010')).status).toBe(200);
    expectError(await client(app).get('/__admin/health').set('Host', 'evil.example'), 'cross_site_request', { api: false });
  });

  it('bound to one address, accepts that address as Host', async () => {
    const app = makeApp({ host: '192.0.2.10' });
    expect((await client(app).get('/__admin/health').set('Host', '192.0.2.10:4010')).status).toBe(200);
    expectError(await client(app).get('/__admin/health').set('Host', '192.0.2.11:4010'), 'cross_site_request', { api: false });
  });

  it('leaves /v1 alone: the API key is its protection, whatever the Host or Origin', async () => {
    const res = await client(makeApp())
      .get('/v1/status')
      .set(bearer(KEYS.free))
      .set('Host', 'evil.example')
      .set('Origin', 'http://evil.example');
    expect(res.status).toBe(200);
  });

  it('refuses an allowedHosts entry that is not a host name', () => {
    expect(() => makeApp({ allowedHosts: ['http://commerce'] })).toThrow(/allowed-hosts/);
    expect(() => makeApp({ allowedHosts: [''] })).toThrow(/allowed-hosts/);
  });
});

describe('the cross-site guard lets the typed clients reach the admin API', () => {
  it('mock.admin (AdminClient) works on a real socket, with and without a token', async () => {
    for (const adminToken of [undefined, TOKEN]) {
      const mock = await startServer(adminToken ? { adminToken } : {});
      try {
        expect(await mock.admin.health()).toEqual({ status: 'ok' });
        const { account } = await mock.admin.accounts.create({ plan: 'paid' });
        expect(account.plan).toBe('paid');
        expect(await new AdminClient(mock.url.replace('127.0.0.1', 'localhost'), adminToken).health()).toEqual({ status: 'ok' });
      } finally {
        await mock.close();
      }
    }
  });

  it('the vitest globalSetup helper hands workers a client that works', async () => {
    const provided = new Map<string, unknown>();
    const teardown = await mockServerSetup({ clock: 'frozen' })({ provide: (key, value) => provided.set(key, value) });
    try {
      const mock = connectToMock(provided.get(PROVIDE_KEY));
      const { api_key } = await mock.admin.accounts.create({ plan: 'free' });
      const res = await fetch(`${mock.apiUrl}/status`, { headers: bearer(api_key.token) });
      expect(res.status).toBe(200);
    } finally {
      await teardown();
    }
  });
});
