/**
 * Bad input never crashes and never leaks a stack: a seeded fuzz over every /v1 operation and every
 * admin route, on a real socket, with and without an admin token. Its vocabulary is what the
 * attacker's probes of the hardening review used:
 * path case and slashes, content codings (valid, stacked, upper case, corrupt, unknown), `Prefer`
 * elements with hostile parameter names, bodies of every JSON shape and some that are not JSON,
 * foreign `Origin`s, admin tokens right and wrong, resets and clock moves in the middle of it all.
 *
 * Invariants, for every answer: never a 5xx (but the 500 a request asked for with
 * `Prefer: scenario=server-error`), a `Request-Id`, and every 4xx in the error envelope. After the
 * run the server still answers its health check. The generator is a seeded PRNG, so a failure names
 * the seed and the request index, and the same seed replays the same requests.
 */
import { request as httpRequest, Agent } from 'node:http';
import { gzipSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/server.js';
import { buildAdminRouter } from '../../src/admin/routes.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { prng } from '../support/prng.js';

const REQUESTS_PER_SERVER = 1200;
const SEED = 0x5eed13;
const ADMIN_TOKEN = 'fuzz-admin-token';

type Pick = <T>(items: readonly T[]) => T;

/** Every admin route, read from the router itself so a new route is fuzzed without being listed here. */
function adminRoutes(): Array<{ method: string; path: string }> {
  const router = buildAdminRouter() as unknown as { stack: Array<{ path: string; methods: string[] }> };
  const routes: Array<{ method: string; path: string }> = [];
  for (const layer of router.stack) {
    for (const method of layer.methods) if (method !== 'HEAD') routes.push({ method, path: layer.path });
  }
  return routes;
}

const HOSTILE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const ID_POOL = [
  'exp_free_course',
  'disc_free_launch',
  'acct_free_default',
  'acct_paid_default',
  'key_free_default',
  'key_free_read_only',
  'job_0',
  ...HOSTILE_NAMES,
  '..',
  '%2e%2e',
  '%00',
  'x'.repeat(300),
  '%F0%9F%92%A5',
  'ünïcødé',
];

const TOKENS = ['cc_test_free_default_key', 'cc_test_paid_default_key', 'cc_test_free_read_only_key', 'cc_test_nope', '', 'Bearer'];
// Contract §3.5's table by name, and a name that is none. Not the whole catalog: a transport fault
// (§4.2) drops the answer the invariants read.
const SCENARIOS = ['rate-limited', 'crawl-fails', 'keys-expired', 'server-error', 'slow-responses', 'deprecated-operations', 'nope'];

function jsonValue(random: () => number, pick: Pick, depth = 0): unknown {
  const roll = random();
  if (depth > 3 || roll < 0.3) {
    return pick([null, true, false, 0, -1, 1e308, 1.5, '', 'true', 'x'.repeat(50), '2026-01-01T00:00:00Z', '9999-12-31T23:59:59Z', -1e308]);
  }
  if (roll < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => jsonValue(random, pick, depth + 1));
  const out: Record<string, unknown> = {};
  const names = [
    ...HOSTILE_NAMES,
    'url',
    'name',
    'plan',
    'fixture',
    'account_id',
    'access',
    'expires_at',
    'mode',
    'now',
    'seconds',
    'events',
    'answers',
    'metadata',
    'email',
    'form_id',
    'params',
    'times',
    'start_time',
    'duration',
    'label',
    'direction',
    'type',
    'clock',
  ];
  for (let i = Math.floor(random() * 5); i > 0; i -= 1) {
    // JSON.parse, not assignment: `__proto__` must arrive as an own member, as it does off the wire.
    Object.assign(out, JSON.parse(`{${JSON.stringify(pick(names))}: ${JSON.stringify(jsonValue(random, pick, depth + 1)) ?? 'null'}}`));
  }
  return out;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The request asked for a 500 itself (`Prefer: scenario=server-error`). */
  mayFail: boolean;
}

function generator(seed: number, admin: Array<{ method: string; path: string }>, token: string | undefined) {
  const random = prng(seed);
  const pick: Pick = (items) => items[Math.floor(random() * items.length)]!;
  const fill = (template: string) => template.replace(/\{[^}]+\}|:[a-z_]+/g, () => encodeURIComponent(pick(ID_POOL)).replace(/%25/g, '%'));
  const mangle = (path: string) => {
    const roll = random();
    if (roll < 0.06) return path.toUpperCase();
    if (roll < 0.1) return path.replace('/__admin', pick(['/__ADMIN', '/__Admin', '/__aDmin', '/__admin/', '/__admin//']));
    if (roll < 0.13) return path.replace('/v1', pick(['/V1', '/v1/', '//v1']));
    if (roll < 0.16) return `${path}/`;
    if (roll < 0.18) return pick(['/__admin', '/__admin/', '/__admin/nope', '/v1', '/', '/nope', '/openapi.json', '/__admin/ui']);
    return path;
  };

  return function next(): FuzzRequest {
    let method: string;
    let path: string;
    if (random() < 0.55) {
      const op = pick(OPERATIONS);
      method = random() < 0.9 ? op.method : pick(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS']);
      path = `/v1${fill(op.path)}`;
      if (random() < 0.3)
        path += `?${pick(['limit', 'starting_after', 'type', 'label', 'direction', ...HOSTILE_NAMES])}=${encodeURIComponent(String(jsonValue(random, pick, 4)))}`;
    } else {
      const route = pick(admin);
      method = random() < 0.9 ? route.method : pick(['GET', 'POST', 'PUT', 'OPTIONS']);
      path = fill(route.path);
      if (random() < 0.2)
        path += `?${pick(['account_id', 'limit', ...HOSTILE_NAMES])}=${encodeURIComponent(String(jsonValue(random, pick, 4)))}`;
    }
    path = mangle(path);
    // Resets and clock moves are part of the weather, but not every other request.
    if (path.endsWith('/reset') && random() < 0.7) path = '/__admin/health';

    const headers: Record<string, string> = {};
    if (random() < 0.8) headers.authorization = `Bearer ${pick(TOKENS)}`;
    if (token !== undefined && random() < 0.85)
      headers['x-admin-token'] = random() < 0.9 ? token : pick(['wrong', token.toUpperCase(), `${token} `, '']);
    if (random() < 0.15) headers.origin = pick(['http://evil.example', 'null', 'http://127.0.0.1', 'https://localhost:1']);
    if (random() < 0.2) headers['idempotency-key'] = pick(['k1', 'k2', '__proto__', 'x'.repeat(300)]);
    let mayFail = false;
    if (random() < 0.2) {
      const scenario = pick(SCENARIOS);
      mayFail = scenario === 'server-error';
      const params = Array.from(
        { length: Math.floor(random() * 3) },
        () =>
          `${pick([...HOSTILE_NAMES, 'retry_after', 'times', 'delay_ms', 'error_code'])}=${pick(['1', '0', '-1', '"x"', '99999999999'])}`,
      );
      // slow-responses waits for real: keep its delay tiny so the run stays quick.
      if (scenario === 'slow-responses') params.push('delay_ms=1');
      headers.prefer = [`scenario=${scenario}`, ...params].join('; ');
    }

    let body: Buffer | undefined;
    if (method !== 'GET' && random() < 0.85) {
      const text =
        random() < 0.85
          ? JSON.stringify(jsonValue(random, pick))
          : pick(['', '{', '{"a":', '[]', 'null', 'not json', '\u0000', '{"a":1}{"b":2}']);
      body = Buffer.from(text);
      headers['content-type'] = pick([
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'APPLICATION/JSON',
        'garbage',
      ]);
      const coding =
        random() < 0.7
          ? undefined
          : pick(['gzip', 'GZIP', 'x-gzip', 'deflate', 'identity', 'compress', 'br', 'gzip, gzip', 'corrupt-gzip', 'bogus']);
      if (coding !== undefined) {
        if (coding === 'gzip' || coding === 'GZIP' || coding === 'x-gzip') body = gzipSync(body);
        else if (coding === 'deflate') body = deflateSync(body);
        else if (coding === 'gzip, gzip') body = gzipSync(gzipSync(body));
        else if (coding === 'corrupt-gzip') body = Buffer.concat([gzipSync(body).subarray(0, 12), Buffer.from('broken')]);
        headers['content-encoding'] = coding === 'corrupt-gzip' ? 'gzip' : coding;
      }
    }
    return { method, path, headers, body, mayFail };
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(mock: MockServer, agent: Agent, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port: mock.port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
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
    sent.end(req.body);
  });
}

/** What is wrong with one answer, or undefined when nothing is. */
function fault(req: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500 && !(req.mayFail && answer.status === 500)) return 'a 5xx';
  if (!/^req_/.test(String(answer.headers['request-id']))) return 'no Request-Id';
  if (/\n\s+at /.test(answer.text)) return 'a stack in the body';
  if (answer.status >= 400 && req.method !== 'HEAD') {
    let body: { error?: { type?: unknown; code?: unknown; message?: unknown } } | undefined;
    try {
      body = JSON.parse(answer.text) as typeof body;
    } catch {
      return 'an error body that is not JSON';
    }
    const error = body?.error;
    if (typeof error?.type !== 'string' || typeof error.code !== 'string' || typeof error.message !== 'string')
      return 'an error outside the envelope';
  }
  return undefined;
}

describe.each([
  ['without an admin token', undefined],
  ['with an admin token', ADMIN_TOKEN],
] as const)('a seeded fuzz of every /v1 and admin route, %s', (_label, token) => {
  let mock: MockServer;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });

  beforeAll(async () => {
    mock = await startMockServer({ clock: '2026-01-15T12:00:00Z', seed: 7, adminToken: token, rateLimit: 'free=1000000,paid=1000000' });
  });
  afterAll(async () => {
    agent.destroy();
    await mock.close();
  });

  it('gives no 5xx, a Request-Id on every answer and the envelope on every error; the server stays healthy', async () => {
    const next = generator(SEED + (token ? 1 : 0), adminRoutes(), token);
    const statuses = new Map<number, number>();
    // Every fault is collected, so one run shows them all (the first few in full).
    const faults: string[] = [];
    // Eight at a time: concurrency is part of the vocabulary (a reset lands among other requests).
    for (let i = 0; i < REQUESTS_PER_SERVER; i += 8) {
      const batch = Array.from({ length: 8 }, next);
      const answers = await Promise.all(batch.map((req) => send(mock, agent, req)));
      answers.forEach((answer, j) => {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const req = batch[j]!;
        const found = fault(req, answer);
        if (found)
          faults.push(
            `${found}: request ${i + j}: ${req.method} ${req.path} ${JSON.stringify(req.headers)} → ${answer.status} ${answer.text.slice(0, 200)}`,
          );
      });
    }
    expect(faults.slice(0, 15), `${faults.length} faults`).toEqual([]);
    // The vocabulary reached both successes and refusals of several kinds.
    expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status >= 400).length).toBeGreaterThan(3);
    const health = await send(mock, agent, {
      method: 'GET',
      path: '/__admin/health',
      headers: token ? { 'x-admin-token': token } : {},
      mayFail: false,
    });
    expect(health.status).toBe(200);
  });
});
