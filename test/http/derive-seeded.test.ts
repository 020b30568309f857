/**
 * Bounded work per turn: a request that reads an account's seeded records derives them in slices
 * before its operation runs, so another tenant's request waits for one slice, not for the whole
 * derivation; operations that never touch seeded records derive nothing; a reset or a delete
 * between two slices leaves the request with the store it captured and nothing in the cache; and
 * interleaved derivations give the same bytes as derivations one after the other. Ordering and
 * counts only, never timings.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { DERIVED_CACHE_CAPACITY } from '../../src/store/derived-cache.js';
import { bearer, client, makeApp } from '../support/harness.js';
import { createCrawl } from '../support/jobs.js';
import { newTenant, stateOf } from '../support/resources.js';
import { storeOf } from '../support/stores.js';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/**
 * A sandbox whose template seeds ~3,000 messages in 50 inboxes (a derivation step each): a
 * derivation of many slices however fast the machine, so that requests sent while it runs arrive
 * between two of its slices. The sandbox's own
 * template is not bounded as a request's is (src/admin/account-source.ts).
 */
function heavySandbox(seed: string): MockApp {
  const fixture = JSON.parse(readFileSync('fixtures/default.json', 'utf8')) as { template: { counts: Record<string, number> } };
  fixture.template.counts = { ...fixture.template.counts, inboxes: 50, messages_per_inbox: 60 };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'derive-seeded-')), 'heavy.json');
  writeFileSync(file, JSON.stringify(fixture));
  return makeApp({ seed, fixtures: file });
}

/** Waits (turn by turn, at most a few thousand) until `ready()`. */
async function until(ready: () => boolean): Promise<void> {
  for (let turn = 0; turn < 5000 && !ready(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(ready()).toBe(true);
}

/** The id of the first inbox `accountId` has, read from a twin app (same seed, same accounts), so the app under test derives nothing. */
async function firstInboxOf(twin: MockApp, accountId: string): Promise<string> {
  return (await stateOf(twin, accountId)).inboxes[0]!.id;
}

describe('operations that never touch seeded records derive nothing', () => {
  /** A request per operation declared `seededRecords: false`, answered 2xx on a fresh account. */
  const REQUESTS: Record<string, (tenant: Tenant, jobId: string) => { method: 'get' | 'post'; path: string }> = {
    getStatus: () => ({ method: 'get', path: '/v1/status' }),
    listApiKeys: () => ({ method: 'get', path: '/v1/auth/keys' }),
    getJob: (_, jobId) => ({ method: 'get', path: `/v1/jobs/${jobId}` }),
  };

  it('every operation declared without seeded records, run on an account whose records are not derived, leaves them underived', async () => {
    const declared = OPERATIONS.filter((op) => op.seededRecords === false).map((op) => op.operationId);
    expect(declared.sort()).toEqual(Object.keys(REQUESTS).sort());
    const app = makeApp();
    const tenant = await newTenant(app);
    // A job of its own (a crawl weighs the seeded records), then enough other tenants read to evict them.
    const job = await createCrawl(client(app), tenant.token, { url: 'https://example.com' });
    for (let i = 0; i < DERIVED_CACHE_CAPACITY; i++) await stateOf(app, (await newTenant(app)).accountId);
    const store = storeOf(app, tenant.accountId);
    expect(store.derivedCached).toBe(false);
    for (const operationId of declared) {
      const { method, path } = REQUESTS[operationId]!(tenant, job.id);
      const res = await client(app)[method](path).set(bearer(tenant.token));
      expect(res.status, `${operationId}: ${res.text}`).toBeLessThan(300);
      expect(store.derivedCached, operationId).toBe(false);
      expect(store.deriving, operationId).toBe(false);
    }
  });

  it('an operation that reads them derives them before its handler, once, into the cache', async () => {
    const app = makeApp();
    const tenant = await newTenant(app);
    const res = await client(app).get('/v1/experiences').set(bearer(tenant.token));
    expect(res.status).toBe(200);
    expect(storeOf(app, tenant.accountId).derivedCached).toBe(true);
  });
});

describe('operations that only weigh seeded records derive them only until they are weighed', () => {
  /** A request per operation declared `seededRecords: 'weight'`, answered 2xx. */
  const REQUESTS: Record<string, () => { path: string; body: Record<string, unknown> }> = {
    createApiKey: () => ({ path: '/v1/auth/keys', body: { name: 'another' } }),
    crawlSite: () => ({ path: '/v1/web/crawl', body: { url: 'https://example.com/', max_pages: 1 } }),
  };

  it('every operation declared to only weigh them, run on an account weighed before and no longer cached, derives nothing', async () => {
    const declared = OPERATIONS.filter((op) => op.seededRecords === 'weight').map((op) => op.operationId);
    expect(declared.sort()).toEqual(Object.keys(REQUESTS).sort());
    const app = makeApp();
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    // Weighed once (a first crawl), then evicted by other tenants' reads.
    await createCrawl(client(app), tenant.token, { url: 'https://example.com' });
    expect(store.seededWeighed).toBe(true);
    for (let i = 0; i < DERIVED_CACHE_CAPACITY; i++) await stateOf(app, (await newTenant(app)).accountId);
    expect(store.derivedCached).toBe(false);
    for (const operationId of declared) {
      const { path, body } = REQUESTS[operationId]!();
      const res = await client(app).post(path).set(bearer(tenant.token)).send(body);
      expect(res.status, `${operationId}: ${res.text}`).toBeLessThan(300);
      expect(store.derivedCached, operationId).toBe(false);
      expect(store.deriving, operationId).toBe(false);
    }
  });

  it("an account's request that needs nothing derived waits for its derivation under way: a key listed after one created ahead of it shows it", async () => {
    const app = heavySandbox('order');
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    let prepared = 0;
    const prepare = store.prepare.bind(store);
    store.prepare = (...args) => ((prepared += 1), prepare(...args));
    const reading = client(app)
      .get('/v1/experiences')
      .set(bearer(tenant.token))
      .then((res) => res);
    await until(() => store.deriving);
    const created = client(app)
      .post('/v1/auth/keys')
      .set(bearer(tenant.token))
      .send({ name: 'made while deriving' })
      .then((res) => res);
    // Sent once the creation has reached the step (its body read and validated): it comes after it.
    await until(() => prepared === 2);
    // Still deriving: the listing below comes while the creation waits (else the test shows nothing).
    expect(store.deriving).toBe(true);
    const listed = client(app)
      .get('/v1/auth/keys')
      .set(bearer(tenant.token))
      .then((res) => res);
    const [made, list] = await Promise.all([created, listed]);
    expect((await reading).status).toBe(200);
    expect(made.status).toBe(201);
    expect((list.body.data as Array<{ id: string }>).map((key) => key.id)).toContain(made.body.id);
  });
});

describe('a derivation runs in slices before the operation', () => {
  it('another tenant’s request sent while a fresh account’s first write derives is answered first, before the derivation ends', async () => {
    const [app, twin] = [heavySandbox('slices'), heavySandbox('slices')];
    const [heavy, other] = [await newTenant(app), await newTenant(app)];
    await newTenant(twin);
    const inbox = await firstInboxOf(twin, heavy.accountId);
    const store = storeOf(app, heavy.accountId);
    const answered: string[] = [];
    const write = client(app)
      .patch(`/v1/email/inboxes/${inbox}`)
      .set(bearer(heavy.token))
      .send({ display_name: 'Renamed' })
      .then((res) => {
        answered.push('write');
        return res;
      });
    await until(() => store.deriving);
    let derivedWhenAnswered: boolean | undefined;
    const status = client(app)
      .get('/v1/status')
      .set(bearer(other.token))
      .then((res) => {
        answered.push('status');
        derivedWhenAnswered = store.derivedCached;
        return res;
      });
    const [written, polled] = await Promise.all([write, status]);
    expect([written.status, polled.status]).toEqual([200, 200]);
    expect(answered).toEqual(['status', 'write']);
    // The derivation spanned the other request's turns: it was not done when that one was answered.
    expect(derivedWhenAnswered).toBe(false);
    expect(written.body.display_name).toBe('Renamed');
    expect(store.derivedCached).toBe(true);
  });

  it('contract §4.3: a write whose client left while it derived still sends its events, once its operation ran', async () => {
    const [app, twin] = [heavySandbox('left'), heavySandbox('left')];
    const heavy = await newTenant(app);
    await newTenant(twin);
    const inbox = await firstInboxOf(twin, heavy.accountId);
    const endpoint = await client(app)
      .post('/__admin/webhook_endpoints')
      .send({ account_id: heavy.accountId, url: 'http://127.0.0.1:9/hook', events: ['inbox.updated'] });
    expect(endpoint.status, endpoint.text).toBe(201);
    const store = storeOf(app, heavy.accountId);
    const write = client(app).patch(`/v1/email/inboxes/${inbox}`).set(bearer(heavy.token)).send({ display_name: 'Left' });
    const settled = write.then(
      () => 'answered',
      () => 'aborted',
    );
    await until(() => store.deriving);
    // The connection closes before the operation records its event: no 'close' is left to come.
    write.abort();
    await until(() => store.derivedCached);
    const deliveries = async () =>
      (await client(app).get(`/__admin/webhook_deliveries?account_id=${heavy.accountId}`)).body.data as Array<{
        event_type?: string;
        type?: string;
      }>;
    let found: unknown[] = [];
    for (let attempt = 0; attempt < 200 && found.length === 0; attempt++) {
      found = await deliveries();
      if (found.length === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found[0])).toContain('inbox.updated');
    expect(['answered', 'aborted']).toContain(await settled);
  });

  it('requests of the account that come while it derives wait for the same derivation', async () => {
    const app = heavySandbox('shared');
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    const first = client(app)
      .get('/v1/experiences')
      .set(bearer(tenant.token))
      .then((res) => res);
    await until(() => store.deriving);
    const second = await client(app).get('/v1/experiences?type=event').set(bearer(tenant.token));
    expect(second.status).toBe(200);
    expect((await first).status).toBe(200);
    expect(store.derivedCached).toBe(true);
  });
});

describe('admin routes that read one account’s records derive them in slices too', () => {
  // The heavy account's snapshot is larger than a snapshot may be (422 naming `id`): it is read whole first all the same.
  type Api = ReturnType<typeof client>;
  for (const [route, send, answer] of [
    ['GET /accounts/{id}', (api: Api, id: string) => api.get(`/__admin/accounts/${id}`), 200],
    ['GET /accounts/{id}/snapshot', (api: Api, id: string) => api.get(`/__admin/accounts/${id}/snapshot`), 422],
    ['GET /accounts/{id}/records/{collection}', (api: Api, id: string) => api.get(`/__admin/accounts/${id}/records/messages`), 200],
    // A sample event is made from the account's records.
    ['POST /events', (api: Api, id: string) => api.post('/__admin/events').send({ account_id: id, type: 'customer.created' }), 201],
  ] as const) {
    it(`${route}: another tenant’s request sent while it derives is answered first`, async () => {
      const app = heavySandbox('admin-slices');
      const [heavy, other] = [await newTenant(app), await newTenant(app)];
      const store = storeOf(app, heavy.accountId);
      const answered: string[] = [];
      const read = send(client(app), heavy.accountId).then((res) => {
        answered.push('admin');
        return res;
      });
      await until(() => store.deriving);
      const status = client(app)
        .get('/v1/status')
        .set(bearer(other.token))
        .then((res) => {
          answered.push('status');
          return res;
        });
      const [adminAnswer, polled] = await Promise.all([read, status]);
      expect([adminAnswer.status, polled.status]).toEqual([answer, 200]);
      expect(answered).toEqual(['status', 'admin']);
      expect(store.derivedCached).toBe(true);
    });
  }
});

describe('POST /__admin/events on an account deleted while it derives', () => {
  it('answers 404 and draws nothing: the account made again with that id gets the event ids it gets without the race', async () => {
    const trigger = (app: MockApp, id: string) => client(app).post('/__admin/events').send({ account_id: id, type: 'customer.created' });
    const [app, twin] = [heavySandbox('trigger-race'), heavySandbox('trigger-race')];
    const id = 'acct_trigger_race';
    for (const sandbox of [app, twin])
      expect((await client(sandbox).post('/__admin/accounts').send({ id, plan: 'free' })).status).toBe(201);
    // The twin, without the race: deleted, made again, its first event.
    expect((await client(twin).delete(`/__admin/accounts/${id}`)).status).toBe(200);
    expect((await client(twin).post('/__admin/accounts').send({ id, plan: 'free' })).status).toBe(201);
    const expected = (await trigger(twin, id)).body.id as string;

    const store = storeOf(app, id);
    const racing = trigger(app, id).then((res) => res);
    await until(() => store.deriving);
    expect((await client(app).delete(`/__admin/accounts/${id}`)).status).toBe(200);
    const raced = await racing;
    expect(raced.status, raced.text).toBe(404);
    expect(raced.body.error.param).toBe('account_id');
    expect((await client(app).post('/__admin/accounts').send({ id, plan: 'free' })).status).toBe(201);
    expect((await trigger(app, id)).body.id).toBe(expected);
  });
});

describe('a reset or a delete between two slices', () => {
  for (const action of ['reset', 'delete'] as const) {
    it(`${action}: the request goes on with the store it captured, and that store's derivation never enters the cache`, async () => {
      const [app, twin] = [heavySandbox(`race-${action}`), heavySandbox(`race-${action}`)];
      const tenant = await newTenant(app);
      await newTenant(twin);
      const inbox = await firstInboxOf(twin, tenant.accountId);
      const captured = storeOf(app, tenant.accountId);
      const write = client(app)
        .patch(`/v1/email/inboxes/${inbox}`)
        .set(bearer(tenant.token))
        .send({ display_name: 'Written to the captured store' })
        .then((res) => res);
      await until(() => captured.deriving);
      const admin =
        action === 'reset'
          ? await client(app).post(`/__admin/accounts/${tenant.accountId}/reset`)
          : await client(app).delete(`/__admin/accounts/${tenant.accountId}`);
      expect(admin.status).toBeLessThan(300);
      // Between two slices when the account was reset or deleted.
      expect(captured.deriving).toBe(true);
      const res = await write;
      // Answered from what it captured: the inbox as the seed made it, renamed.
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(inbox);
      expect(res.body.display_name).toBe('Written to the captured store');
      expect(captured.derivedCached).toBe(false);
      expect(captured.deriving).toBe(false);
      if (action === 'reset') {
        const fresh = storeOf(app, tenant.accountId);
        expect(fresh).not.toBe(captured);
        // Nothing of the captured store's write reached the account's new life, and it derived nothing yet.
        expect(fresh.derivedCached).toBe(false);
        expect(fresh.ownedCollections).toEqual(['api_keys']);
        expect((await stateOf(app, tenant.accountId)).inboxes[0]!.display_name).not.toBe('Written to the captured store');
      } else {
        expect(app.sandbox.world.store.forAccount(tenant.accountId)).toBeUndefined();
      }
    });
  }
});

describe('same seed + same requests = same bytes, whatever other tenants do', () => {
  it('two fresh accounts whose first requests derive at once (slices interleaved) end as when run one after the other', async () => {
    const run = async (together: boolean) => {
      const [app, twin] = [heavySandbox('interleaved'), heavySandbox('interleaved')];
      const tenants = [await newTenant(app), await newTenant(app)];
      for (let i = 0; i < tenants.length; i++) await newTenant(twin);
      const inboxes = await Promise.all(tenants.map((t) => firstInboxOf(twin, t.accountId)));
      const requests = tenants.map(
        (tenant, i) => () =>
          client(app)
            .patch(`/v1/email/inboxes/${inboxes[i]!}`)
            .set(bearer(tenant.token))
            .send({ metadata: { order: String(i) } })
            .then((res) => res),
      );
      let answers;
      if (together) {
        const pending = requests.map((send) => send());
        const stores = tenants.map((t) => storeOf(app, t.accountId));
        await until(() => stores.every((store) => store.deriving));
        answers = await Promise.all(pending);
      } else {
        answers = [];
        for (const send of requests) answers.push(await send());
      }
      const states = [];
      for (const tenant of tenants) states.push(JSON.stringify(await stateOf(app, tenant.accountId)));
      return { answers: answers.map((res) => `${res.status} ${res.text}`), states };
    };
    const together = await run(true);
    const apart = await run(false);
    expect(together.answers).toEqual(apart.answers);
    expect(together.states).toEqual(apart.states);
  });
});
