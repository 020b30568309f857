/**
 * Contract §3 (every /__admin route): a seeded fuzz of hostile bodies, on a real socket. The routes
 * are read from the admin router itself, so a route added later is fuzzed without being listed here.
 * Each route gets a fresh sandbox holding a tenant with a key, an active scenario and a webhook
 * endpoint, so path ids are real ones as often as hostile ones, and requests reach the handlers.
 *
 * Bodies: objects whose members are the admin API's field names and prototype keys (`__proto__`,
 * `constructor`…) with values of every wrong type, huge strings, deep nesting, arrays where objects
 * go and objects where arrays go; top-level arrays and scalars; text that is not JSON; bodies past
 * the size limit; wrong, missing and odd content types; gzip bodies, valid and corrupt.
 *
 * Invariants, for every answer: no 5xx; a `Request-Id`; every 4xx in the error envelope with no
 * stack; a refused request (4xx) leaves the sandbox as it was (same world, accounts, keys, records,
 * clocks, scenarios and webhook endpoints); `Object.prototype` is never touched.
 */
import { Agent, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { adminRouteDeclarations } from '../../src/admin/route-kit.js';
import { ADMIN_PREFIX, buildAdminRouter } from '../../src/admin/routes.js';
import type { MockServer } from '../../src/server.js';
import type { JsonSchema } from '../../src/operations/types.js';
import { fuzzRuns } from '../support/fuzz-runs.js';
import { startServer } from '../support/harness.js';

// 20 cases per admin route, each refused one followed by a state fingerprint.
const RUNS = fuzzRuns(20);
const SEED = 0xad317;

interface Route {
  method: string;
  path: string;
  /** The body the route declares (none for a route without one), and its members. */
  schema: JsonSchema | undefined;
  members: string[];
}

/**
 * Every admin route, from the router's own layers (not a hand list), with the members of the body
 * its declaration names, so most bodies are nearly right and reach the checks behind the first one.
 */
function adminRoutes(): Route[] {
  const router = buildAdminRouter();
  const declared = adminRouteDeclarations(router);
  const routes: Route[] = [];
  for (const layer of (router as unknown as { stack: Array<{ path: string; methods: string[] }> }).stack) {
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      const declaration = declared.find((d) => d.method.toUpperCase() === method && `${ADMIN_PREFIX}${d.path}` === layer.path);
      const schema = declaration?.body;
      routes.push({ method, path: layer.path, schema, members: Object.keys(schema?.properties ?? {}) });
    }
  }
  return routes;
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
/** Members the admin API knows somewhere (so some bodies are nearly right), and some it does not. */
const NAMES = [
  ...PROTOTYPE_KEYS,
  'name',
  'plan',
  'fixture',
  'clock',
  'account_id',
  'api_key_id',
  'operation_id',
  'access',
  'expires_at',
  'mode',
  'now',
  'seconds',
  'until',
  'max_seconds',
  'url',
  'events',
  'secret',
  'type',
  'params',
  'times',
  'probability',
  'snapshot',
  'delay_ms',
  'id',
  'object',
  'data',
];
const HOSTILE_IDS = ['__proto__', 'constructor', 'x'.repeat(300), '%00', '..', 'ünï'];
const HUGE = ['x'.repeat(200_000), 'ü'.repeat(60_000), '\u0000'.repeat(2_000), '"'.repeat(10_000)];

const scalar: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      '',
      'free',
      'paid',
      'frozen',
      'running',
      'shared',
      'idle',
      '*',
      'full',
      'read_only',
      '2026-02-30T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-15T12:00:00Z',
      '9999-12-31T23:59:59Z',
      'http://127.0.0.1:9/hook',
      'javascript:alert(1)',
      'whsec_dGVzdA==',
      'acct_free_default',
      'key_free_default',
      'slow-responses',
      'server-error',
      'api_key.created',
      'getStatus',
      ...PROTOTYPE_KEYS,
    ),
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.constantFrom(...HUGE),
  )
  .map((value) => JSON.stringify(value));

/** `depth` nested arrays or objects around a scalar: 32 levels are allowed, deeper is refused. */
const deep: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 2, max: 40 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** JSON text; objects are written member by member, so `__proto__` arrives as an own member, as off the wire. */
const { json } = fc.letrec<{ json: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    deep,
    fc.array(tie('json'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom(...NAMES), tie('json')), { maxLength: 5 })
      .map((members) => `{${members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`),
  ),
}));

/** An object of members, mostly the route's own (with values of any type), some of them unknown or prototype keys. */
function topLevelObject(members: string[]): fc.Arbitrary<string> {
  const name =
    members.length === 0
      ? fc.constantFrom(...NAMES)
      : fc.oneof({ arbitrary: fc.constantFrom(...members), weight: 4 }, { arbitrary: fc.constantFrom(...NAMES), weight: 1 });
  return fc
    .array(fc.tuple(name, json), { minLength: 0, maxLength: 5 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`);
}

const notJson = fc.constantFrom('', ' ', '{', '{"a":', 'not json', '\u0000', '{"a":1}{"b":2}', "{'a':1}", 'NaN', '\ufeff{}', '{"a":1,}');

/**
 * A body that is right but for one change (or none): the route's required members with plausible
 * values (real ids of the sandbox), then a member dropped, one given a hostile value, or an unknown
 * or prototype key added. These reach the checks behind the schema, and the handlers.
 */
interface NearlyRight {
  drop: string | undefined;
  replace: [string, string] | undefined;
  extra: [string, string] | undefined;
  optional: string[];
}

function nearlyRight(members: string[]): fc.Arbitrary<NearlyRight> {
  return fc.record({
    drop: fc.option(fc.constantFrom(...members), { freq: 4, nil: undefined }),
    replace: fc.option(fc.tuple(fc.constantFrom(...members), json), { freq: 2, nil: undefined }),
    extra: fc.option(fc.tuple(fc.constantFrom(...NAMES), json), { freq: 3, nil: undefined }),
    optional: fc.subarray(members),
  });
}

/** A value the declared schema of `name` takes, from the sandbox's own ids where it names one. */
function plausible(name: string, schema: JsonSchema, ids: Record<string, string[]>): unknown {
  if (name === 'account_id') return ids.accounts?.at(-1) ?? 'acct_free_default';
  if (name === 'api_key_id') return ids.api_keys?.at(-1) ?? null;
  if (name === 'url') return 'http://127.0.0.1:9/hook';
  if (name === 'name' && schema.type === 'string' && !schema.maxLength) return 'slow-responses';
  if (name === 'fixture') return 'default';
  if (name === 'secret') return 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const types = ([] as unknown[]).concat(schema.type);
  if (schema.format === 'date-time') return '2026-02-01T00:00:00Z';
  if (types.includes('integer') || types.includes('number')) return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
  if (types.includes('array')) {
    const items = schema.items as JsonSchema | undefined;
    return Array.isArray(items?.enum) ? [items.enum[0]] : [];
  }
  if (types.includes('object')) return {};
  if (types.includes('boolean')) return true;
  return 'x';
}

function renderNearlyRight(plan: NearlyRight, schema: JsonSchema, ids: Record<string, string[]>): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const wanted = new Set([...((schema.required ?? []) as string[]), ...plan.optional]);
  if (plan.drop !== undefined) wanted.delete(plan.drop);
  const entries: Array<[string, string]> = [...wanted].map((name) => [name, JSON.stringify(plausible(name, properties[name] ?? {}, ids))]);
  if (plan.replace) entries.push(plan.replace);
  if (plan.extra) entries.push(plan.extra);
  // Written member by member: a replaced member comes last and wins, a prototype key stays an own member.
  return `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;
}

type BodyPlan = string | NearlyRight;

function bodies(route: Route): fc.Arbitrary<BodyPlan> {
  const { members } = route;
  return fc.oneof(
    ...(members.length > 0 ? [{ arbitrary: nearlyRight(members) as fc.Arbitrary<BodyPlan>, weight: 10 }] : []),
    { arbitrary: topLevelObject(members), weight: 6 },
    { arbitrary: json, weight: 3 },
    { arbitrary: notJson, weight: 2 },
    { arbitrary: deep, weight: 1 },
    // Past the 1 MiB limit.
    { arbitrary: fc.constant(`{"name":"${'x'.repeat(1_100_000)}"}`), weight: 1 },
  );
}

const contentTypes = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 8 },
  {
    arbitrary: fc.constantFrom(
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'garbage',
      undefined,
    ),
    weight: 3,
  },
);

interface AdminRequest {
  method: string;
  /** Where a path parameter goes: a real id (`real`) or a hostile one. */
  idChoice: number;
  hostileId: string;
  query: string | undefined;
  body: BodyPlan | undefined;
  contentType: string | undefined;
  coding: 'gzip' | 'corrupt-gzip' | undefined;
}

function requests(route: Route): fc.Arbitrary<AdminRequest> {
  return fc.record({
    // Mostly the route's own method; sometimes another (405 with Allow, or another route of the path).
    method: fc.oneof(
      { arbitrary: fc.constant(route.method), weight: 9 },
      { arbitrary: fc.constantFrom('PUT', 'POST', 'DELETE'), weight: 1 },
    ),
    idChoice: fc.nat(),
    hostileId: fc.constantFrom(...HOSTILE_IDS),
    query: fc.option(
      fc.constantFrom('__proto__=1', 'limit=-1', 'limit=1e3', 'account_id=', 'constructor[prototype]=x', 'limit=1&limit=2'),
      {
        freq: 5,
        nil: undefined,
      },
    ),
    body: fc.option(bodies(route), { freq: 12, nil: undefined }),
    contentType: contentTypes,
    coding: fc.option(fc.constantFrom<'gzip' | 'corrupt-gzip'>('gzip', 'corrupt-gzip'), { freq: 6, nil: undefined }),
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(
  mock: MockServer,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port: mock.port,
        method,
        path,
        headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** The ids the sandbox holds now, by the path segment that names their kind. */
function realIds(mock: MockServer): Record<string, string[]> {
  const { world } = mock.app.sandbox;
  const accounts = world.store.accountIds();
  const keys = accounts.flatMap((id) => (world.store.forAccount(id)?.collection('api_keys').values() ?? []).map((key) => key.id));
  return {
    accounts,
    api_keys: keys,
    scenarios: world.scenarios.list().map((active) => active.id),
    webhook_endpoints: world.webhooks.endpoints().map((endpoint) => endpoint.id),
    webhook_deliveries: ['whd_nope'],
  };
}

/** What a refused request must leave as it was: the world, and everything visible in it. */
function fingerprint(mock: MockServer): { world: unknown; text: string } {
  const { world } = mock.app.sandbox;
  const accounts = world.store.accountIds().map((id) => {
    const account = world.store.forAccount(id)!;
    return {
      record: account.account,
      owned: account.ownedCollections,
      state: account.snapshot(),
      clock: world.timeOf(id).clock.snapshot(),
    };
  });
  return {
    world,
    text: JSON.stringify({
      clock: world.clock.snapshot(),
      accounts,
      tenants: [...world.tenants.keys()],
      scenarios: world.scenarios.list(),
      endpoints: world.webhooks.endpoints(),
      deprecations: world.deprecations,
    }),
  };
}

/** What is wrong with one answer, or undefined. */
function fault(answer: Answer): string | undefined {
  if (answer.status >= 500) return 'a 5xx';
  if (!/^req_/.test(String(answer.headers['request-id']))) return 'no Request-Id';
  if (/\n\s+at /.test(answer.text)) return 'a stack in the body';
  if (answer.status >= 400) {
    let parsed: { error?: { type?: unknown; code?: unknown; message?: unknown } } | undefined;
    try {
      parsed = JSON.parse(answer.text) as typeof parsed;
    } catch {
      return 'an error body that is not JSON';
    }
    const error = parsed?.error;
    if (typeof error?.type !== 'string' || typeof error.code !== 'string' || typeof error.message !== 'string')
      return 'an error outside the envelope';
  }
  return undefined;
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

const routes = adminRoutes();
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

describe('contract §3: a seeded fuzz of hostile bodies over every admin route', () => {
  it('contract §3: the routes come from the router, the new ones included', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'POST', path: '/__admin/reset' })]));
  });

  describe.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))('%s', (_label, route, index) => {
    it('contract §3: no 5xx, a Request-Id, the envelope on every error, a refused request changes nothing, no prototype is touched', async () => {
      const mock = await startServer({ seed: 3 });
      try {
        const tenant = await mock.admin.accounts.create({ plan: 'paid' });
        await mock.admin.apiKeys.create({ account_id: tenant.account.id, name: 'second' });
        await mock.admin.scenarios.activate({ name: 'slow-responses', account_id: tenant.account.id, params: { delay_ms: 0 } });
        await mock.admin.webhooks.createEndpoint({ account_id: tenant.account.id, url: 'http://127.0.0.1:9/hook' });
        const faults: string[] = [];
        let refused = 0;
        await fc.assert(
          fc.asyncProperty(requests(route), async (req) => {
            const ids = realIds(mock);
            const path = route.path.replace(/:[a-z_]+/g, () => {
              const kind = route.path.split('/')[2] ?? '';
              const pool = ids[kind] ?? [];
              const id = pool.length > 0 && req.idChoice % 3 !== 0 ? pool[req.idChoice % pool.length]! : req.hostileId;
              return encodeURIComponent(id);
            });
            const headers: Record<string, string> = {};
            let payload: Buffer | undefined;
            const text =
              typeof req.body === 'string' || req.body === undefined ? req.body : renderNearlyRight(req.body, route.schema!, ids);
            if (text !== undefined) {
              payload = Buffer.from(text);
              if (req.contentType !== undefined) headers['content-type'] = req.contentType;
              if (req.coding === 'gzip') payload = gzipSync(payload);
              if (req.coding === 'corrupt-gzip') payload = Buffer.concat([gzipSync(payload).subarray(0, 12), Buffer.from('broken')]);
              if (req.coding !== undefined) headers['content-encoding'] = 'gzip';
            }
            const target = req.query === undefined ? path : `${path}?${req.query}`;
            const before = fingerprint(mock);
            const answer = await send(mock, agent, req.method, target, headers, payload);
            const described = `${req.method} ${target.slice(0, 120)} ${JSON.stringify(headers)} body ${(text ?? '').slice(0, 120)} → ${answer.status} ${answer.text.slice(0, 200)}`;
            const found = fault(answer);
            if (found) faults.push(`${found}: ${described}`);
            if (answer.status >= 400 && answer.status < 500) {
              refused += 1;
              const after = fingerprint(mock);
              if (after.world !== before.world || after.text !== before.text)
                faults.push(`a refused request changed the state: ${described}`);
            }
            if (
              Object.getOwnPropertyNames(Object.prototype).sort().join() !== PROTOTYPE_NAMES.join() ||
              ({} as Record<string, unknown>).polluted !== undefined
            )
              faults.push(`Object.prototype was touched: ${described}`);
          }),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        );
        expect(faults.slice(0, 10), `${faults.length} faults`).toEqual([]);
        // Hostile bodies are refused: the run reached the refusals, not only the happy path.
        expect(refused).toBeGreaterThan(RUNS / 3);
      } finally {
        await mock.close();
      }
    });
  });
});
