/**
 * Contract §5.3 under attack: a real snapshot damaged in many seeded ways (members dropped,
 * retyped, oversized, keys named like Object's own, records repeated, huge arrays), each sent back
 * to `POST /__admin/accounts`. Every load answers 201 or 422, never a 5xx; after each 201 the loaded
 * account is used: every /v1 operation once (ids from its own records), its admin views, a clock
 * advance until idle and an account reset, and none of them answers a 5xx. The harness's client
 * also checks every /v1 answer against the OpenAPI document, so an accepted record that makes an
 * answer the document does not describe fails too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_BYTES } from '../../src/admin/snapshot-operations.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { fuzzRuns } from '../support/fuzz-runs.js';
import { prng } from '../support/prng.js';
import { submitAForm } from './support.js';
import { bearer, client, makeApp } from '../support/harness.js';
import { IdPool, OperationRequests, type GeneratedRequest } from '../support/requests.js';

type Json = Record<string, any>;
type Api = ReturnType<typeof client>;

const SEED = 0x5a9f05;
const RUNS = fuzzRuns(80);

/** A snapshot with some of everything: writes, a submission, a conversion, jobs, a second key, an endpoint. */
async function richSnapshot(): Promise<Json> {
  const api = client(makeApp());
  const made = await api.post('/__admin/accounts').send({ clock: 'frozen', plan: 'paid' });
  const id = made.body.account.id as string;
  const auth = bearer(made.body.api_key.token);
  const state = await submitAForm(api, id, auth);
  const destination = state.ad_destinations[0];
  const conversion = { event_name: 'Purchase', event_time: '2026-01-15T11:59:00Z', custom_data: { value: 9 } };
  const sent = await api
    .post('/v1/ads/conversions')
    .set(auth)
    .send({ account_id: destination.account_id, destination_id: destination.id, events: [conversion] });
  expect(sent.status, sent.text).toBeLessThan(300);
  expect(
    (
      await api
        .patch(`/v1/email/inboxes/${state.inboxes[0].id}`)
        .set(auth)
        .send({ metadata: { tier: 'gold' } })
    ).status,
  ).toBe(200);
  for (let i = 0; i < 3; i += 1)
    expect(
      (
        await api
          .post('/v1/web/crawl')
          .set(auth)
          .send({ url: `https://example.com/${i}` })
      ).status,
    ).toBe(201);
  await api.post(`/__admin/accounts/${id}/clock/advance`).send({ seconds: 2 });
  expect((await api.post('/__admin/api_keys').send({ account_id: id, name: 'CI', access: 'read_only' })).status).toBe(201);
  expect((await api.post('/__admin/webhook_endpoints').send({ account_id: id, url: 'http://127.0.0.1:9/hooks' })).status).toBe(201);
  const snapshot = (await api.get(`/__admin/accounts/${id}/snapshot`)).body as Json;
  expect(snapshot.records.conversions.length).toBeGreaterThan(0);
  return snapshot;
}

/** Every path to a member or element of `value`, as keys from the root. */
function paths(value: unknown, at: Array<string | number> = [], into: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return into;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const here = [...at, key];
    into.push(here);
    paths(item, here, into);
  }
  return into;
}

const OTHER_VALUES: unknown[] = [null, 0, -1, 1.5, 1e300, '', 'x', true, [], {}, [null], { id: 'x' }, '2026-02-30T00:00:00Z', 'exp_nobody'];
const POLLUTING = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** One damage of a copy of `snapshot`, chosen by `random`; its label says what was done where. */
function damage(snapshot: Json, random: () => number): { snapshot: Json; label: string } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const copy = structuredClone(snapshot);
  const all = paths(copy);
  // Half the time a member of one record of a collection picked first, so the small collections
  // (keys, jobs, endpoints, submissions) are damaged as often as the long lists of messages.
  const lists: Array<Array<string | number>> = [
    ['api_keys'],
    ['jobs'],
    ['webhook_endpoints'],
    ...Object.keys(copy.records).map((name) => ['records', name]),
  ];
  const list = pick(lists);
  const rows = list.reduce<any>((node, key) => node[key], copy) as Json[];
  const inRecord =
    rows.length > 0 && random() < 0.5 ? all.filter((p) => p.length > list.length + 1 && list.every((key, i) => p[i] === key)) : [];
  const path = inRecord.length > 0 ? pick(inRecord) : pick(all);
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const key = path.at(-1)!;
  const where = path.join('.');
  const kind = pick(['drop', 'retype', 'oversize', 'pollute', 'repeat', 'swap', 'huge-array', 'proto-json'] as const);
  switch (kind) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      return { snapshot: copy, label: `drop ${where}` };
    case 'retype':
      parent[key] = pick(OTHER_VALUES);
      return { snapshot: copy, label: `retype ${where} to ${JSON.stringify(parent[key])}` };
    case 'oversize':
      parent[key] = pick(['x'.repeat(200_000), 9.9e307, -Number.MAX_VALUE, 2 ** 53 + 2, 'é'.repeat(100_000)]);
      return { snapshot: copy, label: `oversize ${where}` };
    case 'pollute': {
      const target = parent[key] !== null && typeof parent[key] === 'object' && !Array.isArray(parent[key]) ? parent[key] : parent;
      if (Array.isArray(target)) return { snapshot: copy, label: `nothing at ${where}` };
      const name = pick(POLLUTING);
      Object.defineProperty(target, name, {
        value: pick([{ polluted: true }, 'x', null, 1]),
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return { snapshot: copy, label: `member ${name} in ${where}` };
    }
    case 'repeat':
      if (Array.isArray(parent)) parent.push(structuredClone(parent[Number(key)]));
      else parent[key] = [parent[key], parent[key]];
      return { snapshot: copy, label: `repeat ${where}` };
    case 'swap': {
      const other = pick(all);
      const value = other.reduce<any>((node, k) => node?.[k], structuredClone(snapshot));
      parent[key] = value;
      return { snapshot: copy, label: `set ${where} to the value at ${other.join('.')}` };
    }
    case 'huge-array': {
      const item = pick([0, 'x', null, {}, parent[key]]);
      const text = JSON.stringify(item) ?? 'null';
      parent[key] = Array.from({ length: Math.floor(300_000 / (text.length + 1)) }, () => structuredClone(item));
      return { snapshot: copy, label: `huge array of ${text.slice(0, 40)} at ${where}` };
    }
    case 'proto-json':
      // A body parsed from the wire: JSON.parse makes `__proto__` an own member (what an attacker sends).
      return {
        snapshot: JSON.parse(JSON.stringify(copy).replace('"id":', '"__proto__":{"isAdmin":true},"id":')),
        label: '__proto__ before the first id',
      };
  }
}

/** Sends the loaded account's one valid request per /v1 operation, its admin views, an advance until idle and a reset. */
async function useLoaded(api: Api, accountId: string, label: string): Promise<void> {
  const key = await api.post('/__admin/api_keys').send({ account_id: accountId, name: 'fuzz' });
  expect(key.status, `${label}: a key for the loaded account: ${key.text}`).toBeLessThan(500);
  const view = await api.get(`/__admin/accounts/${accountId}`);
  expect(view.status, `${label}: GET /__admin/accounts/{id}: ${view.text.slice(0, 300)}`).toBe(200);
  const pool = new IdPool(view.body.state);
  const requests = OPERATIONS.map(
    (op, index) => fc.sample(new OperationRequests(op, pool, new IdPool({})).valid(), { numRuns: 1, seed: SEED + index })[0]!,
  );
  for (const request of requests) {
    const res = await send(api, request, key.status === 201 ? bearer(key.body.token) : {});
    expect(res.status, `${label}: ${request.method} ${request.url.slice(0, 200)} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
  }
  for (const [method, path, body] of [
    ['get', `/__admin/accounts/${accountId}/snapshot`],
    ['get', `/__admin/requests?account_id=${accountId}`],
    ['get', `/__admin/coverage?account_id=${accountId}`],
    ['post', `/__admin/accounts/${accountId}/clock/advance`, { until: 'idle' }],
    ['post', `/__admin/accounts/${accountId}/reset`, {}],
    ['get', `/__admin/accounts/${accountId}`],
  ] as const) {
    const res = await (method === 'get' ? api.get(path) : api.post(path).send(body ?? {}));
    expect(res.status, `${label}: ${method.toUpperCase()} ${path} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
  }
}

function send(api: Api, request: GeneratedRequest, authorization: Record<string, string>) {
  const method = request.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  const pending = api[method](request.url).set({ ...authorization, ...request.headers });
  if (request.body && 'json' in request.body)
    return pending.set('Content-Type', 'application/json').send(JSON.stringify(request.body.json));
  if (request.body) return pending.set('Content-Type', request.body.contentType).send(request.body.raw);
  return pending;
}

describe('contract §5.3: damaged snapshots, fuzzed', () => {
  it(`§5.3: ${RUNS} seeded damages of a real snapshot each load as 201 or 422, never 5xx; no /v1 operation on an account loaded from one answers 5xx`, async () => {
    const original = await richSnapshot();
    const random = prng(SEED);
    const app = makeApp();
    const api = client(app);
    const outcomes = { loaded: 0, refused: 0 };
    for (let run = 0; run < RUNS; run += 1) {
      const { snapshot, label } = damage(original, random);
      const text = JSON.stringify({ snapshot });
      // What the 1 MiB body limit refuses never reaches the decoder: kept under it, with room for the wrapper.
      if (Buffer.byteLength(text) > SNAPSHOT_BYTES) continue;
      const res = await api.post('/__admin/accounts').set('Content-Type', 'application/json').send(text);
      const what = `run ${run} (${label}) -> ${res.status} ${res.text.slice(0, 300)}`;
      expect([201, 422], what).toContain(res.status);
      if (res.status === 422) {
        outcomes.refused += 1;
        expect(res.body.error.param, what).toMatch(/^snapshot(\.|$)/);
        expect(Object.keys(res.body.error.errors), what).toEqual([res.body.error.param]);
        continue;
      }
      outcomes.loaded += 1;
      await useLoaded(api, res.body.account.id, `run ${run} (${label})`);
      expect((await api.delete(`/__admin/accounts/${res.body.account.id}`)).status, what).toBeLessThan(300);
    }
    expect(({} as Json).polluted ?? ({} as Json).isAdmin).toBeUndefined();
    // Both sides were exercised: damages the decoder must refuse, and ones that are still a valid account.
    expect(outcomes.refused, JSON.stringify(outcomes)).toBeGreaterThan(RUNS / 4);
    expect(outcomes.loaded, JSON.stringify(outcomes)).toBeGreaterThan(0);
  });
});
