/**
 * Contract §5.3, account snapshots: `GET /__admin/accounts/{id}/snapshot` and
 * `POST /__admin/accounts {"snapshot"}`. Two apps in one process are two sandboxes with separate
 * worlds (as two processes with the same seed and fixtures are); the last test uses two real processes.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { AdminClient } from '../../src/admin/client.js';
import { SNAPSHOT_BYTES } from '../../src/admin/snapshot-operations.js';
import { bearer, client, expectError, FROZEN_AT, makeApp, startServer } from '../support/harness.js';
import { startCli } from '../support/cli.js';

type Api = ReturnType<typeof client>;
type Json = Record<string, any>;

async function newTenant(api: Api, extra: Record<string, unknown> = { clock: 'frozen' }): Promise<{ id: string; token: string }> {
  const res = await api.post('/__admin/accounts').send(extra);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.account.id, token: res.body.api_key.token };
}

/** Some of everything an account can hold beyond its seeded records: writes, a job, a key, an endpoint. */
async function useIt(api: Api, tenant: { id: string; token: string }): Promise<{ jobId: string }> {
  const auth = bearer(tenant.token);
  const state = (await api.get(`/__admin/accounts/${tenant.id}`)).body.state;
  expect((await api.patch(`/v1/email/inboxes/${state.inboxes[0].id}`).set(auth).send({ display_name: 'Renamed' })).status).toBe(200);
  const form = state.forms.find((f: Json) => f.fields.every((field: Json) => !field.required || field.field_type === 'email'));
  if (form) {
    const email = form.fields.find((field: Json) => field.field_type === 'email');
    const answers = email ? { [email.id]: 'someone@example.com' } : {};
    await api.post('/v1/form_submissions').set(auth).send({ form_id: form.id, answers });
  }
  const job = await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/', max_pages: 3 });
  expect(job.status).toBe(201);
  expect((await api.post('/__admin/api_keys').send({ account_id: tenant.id, name: 'CI', access: 'read_only' })).status).toBe(201);
  expect((await api.post('/__admin/webhook_endpoints').send({ account_id: tenant.id, url: 'http://127.0.0.1:9/hooks' })).status).toBe(201);
  return { jobId: job.body.id };
}

async function snapshotOf(api: Api, id: string): Promise<{ text: string; body: Json }> {
  const res = await api.get(`/__admin/accounts/${id}/snapshot`);
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return { text: res.text, body: JSON.parse(res.text) as Json };
}

function storeOf(app: MockApp, id: string) {
  return app.sandbox.world.store.forAccount(id)!;
}

describe('contract §5.3: GET /__admin/accounts/{id}/snapshot', () => {
  it('§5.3: answers {"object": "account_snapshot", "version": 1, …} with the plan, clock, keys with tokens, records, jobs, credits and webhook endpoints', async () => {
    const app = makeApp();
    const api = client(app);
    const tenant = await newTenant(api, { clock: 'frozen', plan: 'paid' });
    const { jobId } = await useIt(api, tenant);
    const { body } = await snapshotOf(api, tenant.id);
    expect(body).toMatchObject({ object: 'account_snapshot', version: 1, account: { id: tenant.id, plan: 'paid' } });
    expect(Object.keys(body).sort()).toEqual(
      ['account', 'api_keys', 'clock', 'credits', 'jobs', 'object', 'records', 'version', 'webhook_endpoints'].sort(),
    );
    expect(body.clock).toEqual({ now: new Date(Date.parse(FROZEN_AT)).toISOString(), mode: 'frozen', shared: false });
    expect(body.api_keys.map((key: Json) => [key.name, key.access, typeof key.token])).toEqual([
      ['Default', 'full', 'string'],
      ['CI', 'read_only', 'string'],
    ]);
    expect(body.api_keys[0].token).toBe(tenant.token);
    expect(body.jobs.map((job: Json) => job.id)).toEqual([jobId]);
    expect(body.jobs[0].timeline).toBeDefined();
    expect(body.credits).toEqual(storeOf(app, tenant.id).account.credits);
    expect(body.webhook_endpoints).toHaveLength(1);
    expect(body.webhook_endpoints[0].secret).toMatch(/^whsec_/);
    // The seeded records, derived lazily, are in it: every collection as GET /__admin/accounts/{id} shows it.
    const state = (await api.get(`/__admin/accounts/${tenant.id}`)).body.state;
    for (const name of Object.keys(body.records)) expect(body.records[name].length, name).toBe(state[name].length);
    expect(body.records.customers.length).toBeGreaterThan(0);
    expect(body.records.inboxes[0].display_name).toBe('Renamed');
  });

  it('§5.3: the snapshot of an account is the same bytes for the same state, in one sandbox and in another with the same seed', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const api = client(makeApp());
      const tenant = await newTenant(api);
      await useIt(api, tenant);
      texts.push((await snapshotOf(api, tenant.id)).text, (await snapshotOf(api, tenant.id)).text);
    }
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]!.startsWith('{"object":"account_snapshot","version":1,"account":{"id":')).toBe(true);
  });

  it('an unknown account is 404', async () => {
    expectError(await client(makeApp()).get('/__admin/accounts/acct_nobody/snapshot'), 'resource_missing', { api: false, param: 'id' });
  });

  it('§5.3 bounded: an account whose snapshot would not fit in a POST body is refused (422 naming id)', async () => {
    const app = makeApp();
    const api = client(app);
    const tenant = await newTenant(api);
    const [destination] = (await api.get(`/__admin/accounts/${tenant.id}`)).body.state.ad_destinations;
    const big = 'x'.repeat(300_000);
    for (let i = 0; i < 4; i++) {
      const res = await api
        .post('/v1/ads/conversions')
        .set(bearer(tenant.token))
        .send({
          account_id: destination.account_id,
          destination_id: destination.id,
          events: [{ event_name: 'Lead', event_time: 1, note: big }],
        });
      expect(res.status, res.text).toBe(200);
    }
    expect(SNAPSHOT_BYTES).toBeLessThan(1024 * 1024);
    expectError(await api.get(`/__admin/accounts/${tenant.id}/snapshot`), 'validation_failed', {
      api: false,
      param: 'id',
      errors: { id: [expect.stringContaining(String(SNAPSHOT_BYTES))] },
    });
  });
});

describe('contract §5.3: POST /__admin/accounts {"snapshot"}', () => {
  it('§5.3: 201, the same shape as any creation, with the same account id, key ids and tokens, records and clock instant; it answers the same bytes', async () => {
    const source = makeApp();
    const a = client(source);
    const tenant = await newTenant(a);
    const { jobId } = await useIt(a, tenant);
    const taken = await snapshotOf(a, tenant.id);

    const target = makeApp();
    const b = client(target);
    const loaded = await b.post('/__admin/accounts').send({ snapshot: taken.body });
    expect(loaded.status, loaded.text).toBe(201);
    expect(Object.keys(loaded.body).sort()).toEqual(['account', 'api_key']);
    expect(loaded.body.account).toMatchObject({
      id: tenant.id,
      object: 'account',
      clock: { now: taken.body.clock.now, mode: 'frozen', shared: false },
    });
    expect(loaded.body.api_key).toMatchObject({ id: taken.body.api_keys[0].id, token: tenant.token });
    // Taken again in the other sandbox: the same bytes.
    expect((await snapshotOf(b, tenant.id)).text).toBe(taken.text);
    // Both keys authenticate there; the same requests answer the same bodies.
    // (Not /v1/status: rate-limit counters are not part of a snapshot.)
    const inbox = taken.body.records.inboxes[0].id as string;
    for (const path of ['/v1/experiences', '/v1/auth/keys', `/v1/jobs/${jobId}`, `/v1/email/inboxes/${inbox}/messages`]) {
      const [x, y] = [await a.get(path).set(bearer(tenant.token)), await b.get(path).set(bearer(tenant.token))];
      expect([y.status, y.text], path).toEqual([x.status, x.text]);
    }
    // The unfinished job ends on the loaded account's clock, with its credits charged as in the source.
    await a.post(`/__admin/accounts/${tenant.id}/clock/advance`).send({ until: 'idle' });
    await b.post(`/__admin/accounts/${tenant.id}/clock/advance`).send({ until: 'idle' });
    const [x, y] = [await a.get(`/v1/jobs/${jobId}`).set(bearer(tenant.token)), await b.get(`/v1/jobs/${jobId}`).set(bearer(tenant.token))];
    expect(y.body.status).toBe('completed');
    expect(y.text).toBe(x.text);
    expect((await snapshotOf(b, tenant.id)).text).toBe((await snapshotOf(a, tenant.id)).text);
    // The second key, read-only, works there too, with its access.
    const readOnly = taken.body.api_keys[1].token as string;
    expect((await b.get('/v1/experiences').set(bearer(readOnly))).status).toBe(200);
    expect((await b.post('/v1/web/crawl').set(bearer(readOnly)).send({ url: 'https://example.com/' })).status).toBe(403);
  });

  it('§5.3: frozen at the snapshot’s instant unless "clock" says otherwise', async () => {
    const a = client(makeApp());
    const tenant = await newTenant(a, { clock: '2026-03-01T10:00:00.250Z' });
    const { body } = await snapshotOf(a, tenant.id);
    const load = async (clock?: string) => {
      const res = await client(makeApp())
        .post('/__admin/accounts')
        .send({ snapshot: body, ...(clock ? { clock } : {}) });
      expect(res.status, res.text).toBe(201);
      return res.body.account.clock;
    };
    expect(await load()).toEqual({ now: '2026-03-01T10:00:00.250Z', mode: 'frozen', shared: false });
    expect(await load('frozen')).toEqual({ now: '2026-03-01T10:00:00.250Z', mode: 'frozen', shared: false });
    expect(await load('2027-01-01T00:00:00Z')).toEqual({ now: '2027-01-01T00:00:00.000Z', mode: 'frozen', shared: false });
    expect(await load('shared')).toEqual({ now: new Date(Date.parse(FROZEN_AT)).toISOString(), mode: 'frozen', shared: true });
    const running = await load('running');
    expect([running.mode, running.shared, Date.parse(running.now) >= Date.parse('2026-03-01T10:00:00.250Z')]).toEqual([
      'running',
      false,
      true,
    ]);
  });

  it('§5.3: ids the sandbox makes later never collide with a loaded snapshot’s (accounts, keys, records, jobs, endpoints)', async () => {
    // The source made its tenant first; the target, with the same seed, would draw the same ids next.
    const a = client(makeApp());
    const tenant = await newTenant(a);
    await useIt(a, tenant);
    const taken = (await snapshotOf(a, tenant.id)).body;
    const target = makeApp();
    const b = client(target);
    expect((await b.post('/__admin/accounts').send({ snapshot: taken })).status).toBe(201);
    const snapshotIds = new Set(
      JSON.stringify(taken)
        .match(/"[a-z]+_[0-9A-Za-z]{24}"/g)!
        .map((quoted) => JSON.parse(quoted) as string),
    );

    const other = await newTenant(b);
    expect(other.id).not.toBe(tenant.id);
    await useIt(b, other);
    // New records, keys, jobs and endpoints in the loaded account itself.
    await useIt(b, tenant);
    for (const id of [other.id, tenant.id]) {
      const later = (await snapshotOf(b, id)).body;
      const made = JSON.stringify(later)
        .match(/"[a-z]+_[0-9A-Za-z]{24}"/g)!
        .map((quoted) => JSON.parse(quoted) as string);
      const fresh = made.filter((value) => !(id === tenant.id && JSON.stringify(taken).includes(`"${value}"`)));
      expect(
        fresh.filter((value) => snapshotIds.has(value)),
        id,
      ).toEqual([]);
      expect(fresh.length).toBeGreaterThan(0);
    }
    // Tokens too: the new tenant's differs from every key of the snapshot.
    expect(taken.api_keys.map((key: Json) => key.token)).not.toContain(other.token);
  });

  it('§5.3: an account id that exists in this sandbox is 409 in the envelope; so is a key or endpoint that exists', async () => {
    const app = makeApp();
    const api = client(app);
    const tenant = await newTenant(api);
    await useIt(api, tenant);
    const { body } = await snapshotOf(api, tenant.id);
    expectError(await api.post('/__admin/accounts').send({ snapshot: body }), 'resource_exists', {
      api: false,
      param: 'snapshot.account.id',
      message: `an account ${tenant.id} exists in this sandbox`,
    });
    const renamed = {
      ...body,
      account: { ...body.account, id: 'acct_renamed' },
      webhook_endpoints: body.webhook_endpoints.map((endpoint: Json) => ({ ...endpoint, account_id: 'acct_renamed' })),
    };
    const keyConflict = await api.post('/__admin/accounts').send({ snapshot: renamed });
    expect([keyConflict.status, keyConflict.body.error.code, keyConflict.body.error.param]).toEqual([
      409,
      'resource_exists',
      'snapshot.api_keys.0.id',
    ]);
    // Nothing was made by a refused load.
    expect((await api.get('/__admin/accounts/acct_renamed')).status).toBe(404);
  });

  it('§5.3: a snapshot of another version, or a damaged one, is 422 naming the member in param', async () => {
    const api = client(makeApp());
    const source = client(makeApp());
    const tenant = await newTenant(source);
    await useIt(source, tenant);
    const { body } = await snapshotOf(source, tenant.id);
    const damaged = (change: (copy: Json) => void) => {
      const copy = structuredClone(body);
      change(copy);
      return copy;
    };
    const cases: Array<[Json, string]> = [
      [damaged((s) => (s.version = 2)), 'snapshot.version'],
      [damaged((s) => delete s.version), 'snapshot.version'],
      [damaged((s) => (s.object = 'account')), 'snapshot.object'],
      [damaged((s) => delete s.records.customers), 'snapshot.records.customers'],
      [damaged((s) => delete s.records.forms[1].id), 'snapshot.records.forms.1.id'],
      [damaged((s) => (s.records.forms[2].id = s.records.forms[0].id)), 'snapshot.records.forms.2.id'],
      [damaged((s) => (s.records.customers[0].object = 'form')), 'snapshot.records.customers.0.object'],
      [damaged((s) => (s.api_keys[1].token = 42)), 'snapshot.api_keys.1.token'],
      [damaged((s) => (s.jobs[0].timeline.ends_at_ms = 'soon')), 'snapshot.jobs.0.timeline.ends_at_ms'],
      [damaged((s) => (s.webhook_endpoints[0].url = 'ftp://x')), 'snapshot.webhook_endpoints.0.url'],
      [damaged((s) => (s.clock.now = 'yesterday')), 'snapshot.clock.now'],
      [damaged((s) => (s.account.plan = 'gold')), 'snapshot.account.plan'],
      [damaged((s) => (s.extra = true)), 'snapshot.extra'],
    ];
    for (const [snapshot, param] of cases) {
      const res = await api.post('/__admin/accounts').send({ snapshot });
      expect([res.status, res.body.error?.code, res.body.error?.param], param).toEqual([422, 'validation_failed', param]);
      expect(Object.keys(res.body.error.errors), param).toEqual([param]);
    }
    expectError(await api.post('/__admin/accounts').send({ snapshot: body, plan: 'paid' }), 'validation_failed', {
      api: false,
      param: 'plan',
      errors: { plan: [expect.any(String)] },
    });
    // Nothing was made by any of them.
    expect((await api.get(`/__admin/accounts/${tenant.id}`)).status).toBe(404);
  });

  it('§5.3: the typed client: admin.accounts.snapshot(id), tenant.snapshot() and accounts.create({ snapshot })', async () => {
    const [one, two] = [await startServer(), await startServer()];
    try {
      const tenant = await one.admin.accounts.create({ clock: 'frozen' });
      const snapshot = await tenant.snapshot();
      expect(await one.admin.accounts.snapshot(tenant.id)).toEqual(snapshot);
      const loaded = await new AdminClient(two.url).accounts.create({ snapshot });
      expect([loaded.id, loaded.token, loaded.account.clock.now]).toEqual([tenant.id, tenant.token, snapshot.clock.now]);
      expect(await loaded.snapshot()).toEqual(snapshot);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('§5.3: a snapshot taken in one process loads in another started with the same seed, and answers the same bytes', async () => {
    const args = ['--port', '0', '--clock', FROZEN_AT];
    const [first, second] = [await startCli(args), await startCli(args)];
    try {
      const json = { 'content-type': 'application/json' };
      const created = (await (
        await fetch(`${first.url}/__admin/accounts`, { method: 'POST', headers: json, body: '{"clock":"frozen"}' })
      ).json()) as Json;
      const id = created.account.id as string;
      const token = created.api_key.token as string;
      const text = await (await fetch(`${first.url}/__admin/accounts/${id}/snapshot`)).text();
      const loaded = await fetch(`${second.url}/__admin/accounts`, { method: 'POST', headers: json, body: `{"snapshot":${text}}` });
      expect(loaded.status).toBe(201);
      expect(await (await fetch(`${second.url}/__admin/accounts/${id}/snapshot`)).text()).toBe(text);
      const read = async (url: string) => (await fetch(`${url}/v1/experiences`, { headers: { authorization: `Bearer ${token}` } })).text();
      expect(await read(second.url)).toBe(await read(first.url));
      // The next account made in the second process is not the loaded one's id (same seed, same draws).
      const next = (await (await fetch(`${second.url}/__admin/accounts`, { method: 'POST', headers: json, body: '{}' })).json()) as Json;
      expect(next.account.id).not.toBe(id);
    } finally {
      first.child.kill('SIGTERM');
      second.child.kill('SIGTERM');
      await Promise.all([first.exited, second.exited]);
    }
  });
});
