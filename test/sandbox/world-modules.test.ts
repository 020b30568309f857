/**
 * The world module contract (src/sandbox/world-module.ts): a module added to the list is made for
 * every world and hears the account lifecycle, the world's close and the traffic hooks, without
 * touching any other file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppWithOperations } from '../../src/app.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { WORLD_MODULES } from '../../src/sandbox/modules.js';
import type { EndedDelivery, RequestExchange, WorldModule } from '../../src/sandbox/world-module.js';
import type { World } from '../../src/sandbox/world.js';
import { ACCOUNTS, FROZEN_AT, KEYS, bearer, client } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** A small module: it writes down every hook it hears, per world (a world's instance is its own). */
function recorder() {
  const worlds: Array<{ events: string[]; exchanges: RequestExchange[]; deliveries: EndedDelivery[] }> = [];
  const module: WorldModule<World> = {
    name: 'recorder',
    create(world) {
      const seen = { events: [] as string[], exchanges: [] as RequestExchange[], deliveries: [] as EndedDelivery[] };
      // Created after the world's own parts: the store is there, no account yet.
      seen.events.push(`create:${world.store.forAccount(ACCOUNTS.free) ? 'with accounts' : 'empty'}`);
      worlds.push(seen);
      return {
        accountCreated: (id) => seen.events.push(`created:${id}`),
        accountReset: (id, keyIds) => seen.events.push(`reset:${id}:${[...keyIds].sort().join(',')}`),
        accountDeleted: (id, keyIds) => seen.events.push(`deleted:${id}:${[...keyIds].sort().join(',')}`),
        close: () => seen.events.push('close'),
        requestFinished: (exchange) => seen.exchanges.push(exchange),
        deliveryEnded: (delivery) => seen.deliveries.push(delivery),
      };
    },
  };
  return { module, worlds };
}

function appWith(module: WorldModule<World>) {
  return createAppWithOperations({ clock: FROZEN_AT }, OPERATIONS, [...WORLD_MODULES, module]);
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('world modules: one lifecycle for every part of a world', () => {
  it('a listed module is made for each world, before its accounts, and hears create, reset, delete and close', async () => {
    const { module, worlds } = recorder();
    const app = appWith(module);
    const api = client(app);
    expect(worlds).toHaveLength(1);
    const boot = worlds[0]!;
    expect(boot.events).toEqual(['create:empty', `created:${ACCOUNTS.free}`, `created:${ACCOUNTS.paid}`]);
    expect(app.sandbox.world.module(module)).toBeDefined();

    const made = await api.post('/__admin/accounts').send({});
    expect(made.status).toBe(201);
    const id = made.body.account.id as string;
    expect(boot.events.at(-1)).toBe(`created:${id}`);

    expect((await api.post(`/__admin/accounts/${ACCOUNTS.free}/reset`)).status).toBe(200);
    expect(boot.events.at(-1)).toBe(`reset:${ACCOUNTS.free}:key_free_default,key_free_read_only`);
    expect((await api.delete(`/__admin/accounts/${id}`)).status).toBe(200);
    expect(boot.events.at(-1)).toMatch(new RegExp(`^deleted:${id}:key_`));

    // A sandbox reset closes the old world's instance and makes a new one for the new world.
    expect((await api.post('/__admin/reset')).status).toBe(200);
    expect(boot.events.at(-1)).toBe('close');
    expect(worlds).toHaveLength(2);
    expect(worlds[1]!.events).toEqual(['create:empty', `created:${ACCOUNTS.free}`, `created:${ACCOUNTS.paid}`]);
  });

  it('requestFinished hears each /v1 request as it ended, and no admin call', async () => {
    const { module, worlds } = recorder();
    const app = appWith(module);
    const api = client(app);
    const res = await api.get('/v1/auth/keys').query({ limit: '1' }).set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    await api.get('/__admin/accounts');
    const created = await api.post('/v1/auth/keys').set(bearer(KEYS.paid)).set('Idempotency-Key', 'k-1').send({ name: 'CI' });
    expect(created.status).toBe(201);
    const missing = await api.get('/v1/no-such-thing');
    const [status, write, unknown, ...rest] = worlds[0]!.exchanges;
    expect(rest).toEqual([]);
    expect(status).toMatchObject({
      requestId: res.headers['x-request-id'],
      accountId: ACCOUNTS.free,
      apiKeyId: 'key_free_default',
      method: 'GET',
      path: '/v1/auth/keys',
      query: { limit: '1' },
      operationId: 'listApiKeys',
      body: null,
      idempotencyKey: null,
      status: 200,
      fault: null,
      closedEarly: false,
      scenarioIds: [],
      virtualStart: Date.parse(FROZEN_AT),
      virtualEnd: Date.parse(FROZEN_AT),
    });
    expect(status!.realEnd).toBeGreaterThanOrEqual(status!.realStart);
    expect(write).toMatchObject({
      accountId: ACCOUNTS.paid,
      method: 'POST',
      operationId: 'createApiKey',
      body: { name: 'CI' },
      idempotencyKey: 'k-1',
      status: 201,
    });
    expect(unknown).toMatchObject({ accountId: null, apiKeyId: null, operationId: null, status: missing.status });
  });

  it('requestFinished sees a scenario answer with its Retry-After', async () => {
    const { module, worlds } = recorder();
    const api = client(appWith(module));
    await api.post('/__admin/scenarios').send({ name: 'rate-limited', params: { retry_after: 7 } });
    const res = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(res.status).toBe(429);
    const exchange = worlds[0]!.exchanges.at(-1)!;
    expect(exchange.status).toBe(429);
    expect(exchange.headers.retryAfter).toBe('7');
    expect(exchange.scenarioIds).toHaveLength(1);
  });

  it('deliveryEnded hears a delivery that succeeded, with its attempts and the receiver status', async () => {
    const { module, worlds } = recorder();
    const hooks = await startReceiver(() => 204);
    receivers.push(hooks);
    const api = client(appWith(module));
    const endpoint = await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: hooks.url });
    expect(endpoint.status).toBe(201);
    expect((await api.post('/__admin/events').send({ account_id: ACCOUNTS.free, type: 'customer.created' })).status).toBe(201);
    await hooks.received(1);
    // An advance by 0 s answers once the attempt under way is recorded.
    await api.post('/__admin/clock/advance').send({ seconds: 0 });
    expect(worlds[0]!.deliveries).toEqual([
      {
        deliveryId: expect.stringMatching(/^whd_/),
        accountId: ACCOUNTS.free,
        endpointId: endpoint.body.id,
        eventType: 'customer.created',
        outcome: 'succeeded',
        attempts: 1,
        badlySigned: false,
        endpointDeleted: false,
        lastStatus: 204,
      },
    ]);
  });

  it('without a listening module no exchange is built; of the shipped list, findings and coverage listen, and findings not when off', () => {
    const quiet = WORLD_MODULES.filter((module) => module.name !== 'coverage');
    expect(createAppWithOperations({ clock: FROZEN_AT, findingsBudget: 0 }, OPERATIONS, quiet).sandbox.world.requestListeners).toEqual([]);
    expect(createAppWithOperations({ clock: FROZEN_AT }, OPERATIONS, quiet).sandbox.world.requestListeners).toHaveLength(1);
    expect(createAppWithOperations({ clock: FROZEN_AT }, OPERATIONS).sandbox.world.requestListeners).toHaveLength(2);
  });
});
