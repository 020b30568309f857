/** Contract §5.2: coverage per account and operation, kept as requests and deliveries finish. */
import { describe, expect, it } from 'vitest';
import { coverageModule } from '../../src/coverage/world-module.js';
import type { World } from '../../src/sandbox/world.js';

/** The coverage module's book in `world` (one per world). */
const coverageOf = (world: World) => world.module(coverageModule)!.book;
import { OPERATIONS } from '../../src/resources/index.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp, startServer } from '../support/harness.js';
import { activate } from '../support/scenarios.js';
import { sandbox, useReceivers } from '../webhooks/support.js';

type Client = ReturnType<typeof client>;

async function coverage(c: Client, accountId?: string): Promise<Record<string, any>> {
  const res = await c.get(`/__admin/coverage${accountId === undefined ? '' : `?account_id=${accountId}`}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function operation(view: Record<string, any>, operationId: string): Record<string, any> {
  return view.operations.find((op: { operation_id: string }) => op.operation_id === operationId);
}

const receiver = useReceivers();

describe('GET /__admin/coverage (contract §5.2)', () => {
  it('contract §5.2: one entry per /v1 operation, uncalled ones included, documented statuses read from /openapi.json', async () => {
    const c = client(makeApp());
    const view = await coverage(c);
    expect(Object.keys(view)).toEqual(['object', 'account_id', 'operations', 'webhooks', 'summary']);
    expect(view).toMatchObject({ object: 'coverage', account_id: null, webhooks: {} });
    expect(view.operations.map((op: any) => op.operation_id).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
    const document = (await c.get('/openapi.json')).body as { paths: Record<string, Record<string, any>> };
    let documented = 0;
    for (const op of view.operations) {
      expect(Object.keys(op)).toEqual([
        'operation_id',
        'method',
        'path',
        'calls',
        'statuses',
        'documented_statuses',
        'untested_statuses',
        'scenarios',
        'faults',
      ]);
      const described = document.paths[op.path]![op.method.toLowerCase()];
      expect(described.operationId).toBe(op.operation_id);
      const explicit = Object.keys(described.responses)
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number)
        .sort((a, b) => a - b);
      expect(op.documented_statuses).toEqual(explicit);
      expect(op).toMatchObject({ calls: 0, statuses: {}, untested_statuses: explicit, scenarios: {}, faults: {} });
      documented += explicit.length;
    }
    expect(view.summary).toEqual({
      operations_called: 0,
      operations_total: OPERATIONS.length,
      statuses_seen: 0,
      statuses_documented: documented,
    });
  });

  it('contract §5.2: calls and statuses per account and operation; untested_statuses are the documented ones never answered', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free));
    await c.get('/v1/status').set(bearer(KEYS.free));
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 5 });
    await c.get('/v1/status').set(bearer(KEYS.paid));
    const free = await coverage(c, ACCOUNTS.free);
    expect(free.account_id).toBe(ACCOUNTS.free);
    expect(operation(free, 'getStatus')).toMatchObject({ calls: 2, statuses: { 200: 2 } });
    expect(operation(free, 'getStatus').untested_statuses).not.toContain(200);
    const create = operation(free, 'createApiKey');
    expect(create).toMatchObject({ calls: 2, statuses: { 201: 1, 422: 1 } });
    expect(create.untested_statuses).toEqual(create.documented_statuses.filter((s: number) => s !== 201 && s !== 422));
    expect(free.summary).toMatchObject({ operations_called: 2, statuses_seen: 3 });
    expect(operation(await coverage(c, ACCOUNTS.paid), 'getStatus')).toMatchObject({ calls: 1, statuses: { 200: 1 } });
    // Every account together, requests without a known key too.
    await c.get('/v1/status').set(bearer('cc_test_unknown_token'));
    expect(operation(await coverage(c), 'getStatus')).toMatchObject({ calls: 4, statuses: { 200: 3, 401: 1 } });
    // An unknown path is no operation: nothing counts.
    await c.get('/v1/nowhere').set(bearer(KEYS.free));
    expect((await coverage(c, ACCOUNTS.free)).summary.operations_called).toBe(2);
    const missing = await c.get('/__admin/coverage?account_id=acct_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'resource_missing', param: 'account_id' });
  });

  it('contract §5.2: scenarios count the requests they acted on, faults by name; a lost answer counts no status', async () => {
    const mock = await startServer();
    try {
      const c = client(mock.app);
      await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, operation_id: 'getStatus', times: 2 });
      for (let i = 0; i < 3; i += 1) await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
      await fetch(`${mock.apiUrl}/status`, { headers: { ...bearer(KEYS.free), Prefer: 'scenario=rate-limited' } });
      await activate(c, { name: 'connection-reset', account_id: ACCOUNTS.free, operation_id: 'listApiKeys', times: 1 });
      await fetch(`${mock.apiUrl}/auth/keys`, { headers: bearer(KEYS.free) }).catch(() => undefined);
      const view = await coverage(c, ACCOUNTS.free);
      expect(operation(view, 'getStatus')).toMatchObject({
        calls: 4,
        statuses: { 200: 1, 429: 1, 500: 2 },
        scenarios: { 'rate-limited': 1, 'server-error': 2 },
        faults: {},
      });
      expect(operation(view, 'listApiKeys')).toMatchObject({
        calls: 1,
        statuses: {},
        scenarios: { 'connection-reset': 1 },
        faults: { 'connection-reset': 1 },
      });
    } finally {
      await mock.close();
    }
  });

  it('contract §5.2: counts are independent of the journal (kept with the journal off)', async () => {
    const c = client(makeApp({ journalSize: 0 }));
    for (let i = 0; i < 3; i += 1) await c.get('/v1/status').set(bearer(KEYS.free));
    expect((await c.get('/__admin/requests')).body.data).toEqual([]);
    expect(operation(await coverage(c, ACCOUNTS.free), 'getStatus')).toMatchObject({ calls: 3, statuses: { 200: 3 } });
  });

  it('contract §5.2: account reset and delete, POST /__admin/reset and DELETE /__admin/coverage clear it', async () => {
    const app = makeApp();
    const c = client(app);
    const tenant = (await c.post('/__admin/accounts').send({})).body;
    const token = tenant.api_key.token as string;
    const id = tenant.account.id as string;
    const called = async (accountId: string) => (await coverage(c, accountId)).summary.operations_called as number;
    await c.get('/v1/status').set(bearer(token));
    await c.get('/v1/status').set(bearer(KEYS.free));
    expect([await called(id), await called(ACCOUNTS.free)]).toEqual([1, 1]);
    expect((await c.post(`/__admin/accounts/${id}/reset`)).status).toBe(200);
    expect([await called(id), await called(ACCOUNTS.free)]).toEqual([0, 1]);
    await c.get('/v1/status').set(bearer(token));
    expect((await c.delete(`/__admin/accounts/${id}`)).status).toBe(200);
    expect(coverageOf(app.sandbox.world).holds(id)).toBe(false);
    expect(operation(await coverage(c), 'getStatus').calls).toBe(1);
    const cleared = await c.delete('/__admin/coverage');
    expect(cleared.status).toBe(200);
    expect((await coverage(c)).summary.operations_called).toBe(0);
    await c.get('/v1/status').set(bearer(KEYS.free));
    expect((await c.post('/__admin/reset')).status).toBe(200);
    expect((await coverage(c)).summary.operations_called).toBe(0);
  });

  it('contract §5.2, guide "an idle tenant holds nothing": an account holds coverage only from its first request', async () => {
    const app = makeApp();
    const c = client(app);
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push((await c.post('/__admin/accounts').send({})).body.account.id as string);
    const book = coverageOf(app.sandbox.world);
    expect(ids.some((id) => book.holds(id))).toBe(false);
    expect(book.size).toBe(0);
    // Asking for an idle tenant's coverage answers zeros and makes nothing.
    expect((await coverage(c, ids[0])).summary.operations_called).toBe(0);
    expect(book.size).toBe(0);
    await c.get('/v1/status').set(bearer(KEYS.free));
    expect([book.size, book.holds(ACCOUNTS.free)]).toEqual([1, true]);
  });

  it('contract §5.2: webhooks are counted per event type as deliveries end: deliveries, succeeded, failed attempts', async () => {
    const hooks = await receiver((n) => (n === 0 ? 500 : 204));
    const s = sandbox();
    await s.endpoint(hooks.url);
    await s.trigger('customer.created');
    await hooks.received(1);
    await s.advance(0);
    // Still retrying: not ended, not counted yet.
    expect((await coverage(s.api, ACCOUNTS.free)).webhooks).toEqual({});
    await s.advance(5);
    await hooks.received(2);
    await s.advance(0);
    await s.trigger('inbox.updated');
    await hooks.received(3);
    await s.advance(0);
    expect((await coverage(s.api, ACCOUNTS.free)).webhooks).toEqual({
      'customer.created': { deliveries: 1, succeeded: 1, failed_attempts: 1 },
      'inbox.updated': { deliveries: 1, succeeded: 1, failed_attempts: 0 },
    });
    expect((await coverage(s.api, ACCOUNTS.paid)).webhooks).toEqual({});
  });

  it('guide "deterministic": the same requests give the same coverage bytes', async () => {
    const run = async () => {
      const c = client(makeApp());
      await c.get('/v1/status').set(bearer(KEYS.free));
      await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'x' });
      return (await c.get('/__admin/coverage')).text;
    };
    expect(await run()).toBe(await run());
  });
});
