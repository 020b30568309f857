import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { serializeItem } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import type { SandboxContext } from '../../src/http/context.js';
import { clientIp } from '../../src/http/identify-caller.js';
import { RATE_LIMIT_POLICY_NAME, rateLimitItem } from '../../src/protocol/rate-limit.js';
import { RateLimiter } from '../../src/protocol/rate-limiter.js';
import { parseRateLimit, SPEC_RATE_LIMIT } from '../../src/config/options.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { getStatus } from '../../src/resources/status/operations.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { compileSchema } from '../../src/operations/validation.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { mockServers, readRateLimit, retryAfter, unixSecondsOf } from '../support/protocol.js';

const WINDOW_END = '2026-01-15T12:01:00Z'; // FROZEN_AT is on a window boundary
const validStatus = compileSchema(getStatus.success.schema);

describe('rate-limit headers (spec §8)', () => {
  it('§8: the RateLimit item built per request is exactly what an RFC 9651 serializer writes, for any standing', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), fc.integer({ min: 1, max: 1e9 }), (remaining, seconds) => {
        const expected = serializeItem([
          RATE_LIMIT_POLICY_NAME,
          new Map([
            ['r', remaining],
            ['t', seconds],
          ]),
        ]);
        expect(rateLimitItem(remaining, seconds)).toBe(expected);
      }),
    );
  });

  it('§8: every success carries RateLimit-Policy, RateLimit and the legacy headers, read as structured fields', async () => {
    const res = await client(makeApp()).get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    expect(readRateLimit(res)).toEqual({
      quota: 600,
      window: 60,
      remaining: 599,
      resetIn: 60,
      legacyLimit: 600,
      legacyRemaining: 599,
      legacyReset: unixSecondsOf(WINDOW_END),
    });
  });

  it('§8: the paid tier gets 3,000 requests per 60-second window', async () => {
    const res = await client(makeApp()).get('/v1/status').set(bearer(KEYS.paid));
    expect(readRateLimit(res)).toMatchObject({ quota: 3000, window: 60, remaining: 2999 });
  });

  it('§8: windows are fixed: t counts down with the virtual clock and the reset instant does not move', async () => {
    const app = makeApp();
    const api = client(app);
    await api.get('/v1/status').set(bearer(KEYS.free));
    app.sandbox.world.clock.advance(15);
    const later = readRateLimit(await api.get('/v1/status').set(bearer(KEYS.free)));
    expect(later).toMatchObject({ remaining: 598, resetIn: 45, legacyReset: unixSecondsOf(WINDOW_END) });
    app.sandbox.world.clock.advance(44.5);
    // Half a second before the reset: t is never 0 (it is whole seconds to wait, rounded up).
    expect(readRateLimit(await api.get('/v1/status').set(bearer(KEYS.free)))).toMatchObject({ remaining: 597, resetIn: 1 });
  });

  it('§8: one counter for all endpoints, reads and writes together', async () => {
    const api = client(makeApp());
    await api.get('/v1/status').set(bearer(KEYS.free));
    await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    const res = await api.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(readRateLimit(res).remaining).toBe(597);
  });

  it('§8: one counter per API key, even for keys of the same account', async () => {
    const app = makeApp();
    const api = client(app);
    const second = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({});
    await api.get('/v1/status').set(bearer(KEYS.free));
    expect(readRateLimit(await api.get('/v1/status').set(bearer(second.body.token))).remaining).toBe(599);
    expect(readRateLimit(await api.get('/v1/status').set(bearer(KEYS.free))).remaining).toBe(597);
  });

  it.each([
    ['401 without a key', (api: ReturnType<typeof client>) => api.get('/v1/status'), 'authentication_required'],
    ['404 for an unknown path', (api: ReturnType<typeof client>) => api.get('/v1/nothing-here').set(bearer(KEYS.free)), 'resource_missing'],
    [
      '405 for a known path with another method',
      (api: ReturnType<typeof client>) => api.delete('/v1/status').set(bearer(KEYS.free)),
      'method_not_allowed',
    ],
    [
      '422 for invalid data',
      (api: ReturnType<typeof client>) => api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 7 }),
      'validation_failed',
    ],
    [
      '400 for an invalid query',
      (api: ReturnType<typeof client>) => api.get('/v1/auth/keys?limit=0').set(bearer(KEYS.free)),
      'bad_request',
    ],
    [
      '403 for a write with a read-only key',
      (api: ReturnType<typeof client>) => api.post('/v1/auth/keys').set(bearer(KEYS.freeReadOnly)).send({}),
      'forbidden',
    ],
  ] as const)('§8: errors carry the rate-limit headers and are counted too: %s', async (_name, send, code) => {
    const api = client(makeApp());
    const first = await send(api);
    const second = await send(api);
    const param = first.body.error?.param as string | undefined;
    const errors = first.body.error?.errors as Record<string, string[]> | undefined;
    expectError(second, code, { ...(param ? { param } : {}), ...(errors ? { errors } : {}) });
    expect(readRateLimit(first).remaining).toBe(599);
    expect(readRateLimit(second).remaining).toBe(598);
  });

  it('§8: admin requests are never counted and carry no rate-limit headers', async () => {
    const app = makeApp();
    const api = client(app);
    const admin = await api.get('/__admin/clock');
    expect(admin.status).toBe(200);
    expect(admin.headers.ratelimit).toBeUndefined();
    await api.get(`/__admin/accounts/${ACCOUNTS.free}`);
    await api.post('/__admin/api_keys').send({ account_id: ACCOUNTS.free });
    expect(readRateLimit(await api.get('/v1/status').set(bearer(KEYS.free))).remaining).toBe(599);
  });
});

describe('over the limit (spec §8)', () => {
  it('§8: the request over the quota is 429 rate_limit_exceeded with Retry-After, r=0 and plan_tier; it is not counted', async () => {
    const app = makeApp({ rateLimit: 'free=3,paid=5' });
    const api = client(app);
    app.sandbox.world.clock.advance(20);
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    const refused = await api.get('/v1/status').set(bearer(KEYS.free));
    expectError(refused, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'free' } });
    expect(retryAfter(refused)).toBe(40);
    expect(readRateLimit(refused)).toMatchObject({ quota: 3, remaining: 0, resetIn: 40 });
    const again = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(again.status).toBe(429);
    expect(app.sandbox.world.rateLimiter.peek('key:key_free_default', 'free', app.sandbox.world.clock.now()).remaining).toBe(0);
  });

  it('§8: the window resets after advancing the clock 60 s (through the admin API)', async () => {
    const app = makeApp({ rateLimit: 'free=2,paid=5' });
    const api = client(app);
    await api.get('/v1/status').set(bearer(KEYS.free));
    await api.get('/v1/status').set(bearer(KEYS.free));
    expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(429);
    await api.post('/__admin/clock/advance').send({ seconds: 59 });
    const stillRefused = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(stillRefused.status).toBe(429);
    expect(retryAfter(stillRefused)).toBe(1);
    await api.post('/__admin/clock/advance').send({ seconds: 1 });
    const fresh = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(fresh.status).toBe(200);
    expect(readRateLimit(fresh)).toMatchObject({ remaining: 1, resetIn: 60, legacyReset: unixSecondsOf('2026-01-15T12:02:00Z') });
  });

  it('§8: the paid tier 429 names plan_tier paid', async () => {
    const api = client(makeApp({ rateLimit: 'free=1,paid=1' }));
    await api.get('/v1/status').set(bearer(KEYS.paid));
    expectError(await api.get('/v1/status').set(bearer(KEYS.paid)), 'rate_limit_exceeded', {
      message: MESSAGES.rateLimited,
      extra: { plan_tier: 'paid' },
    });
  });
});

describe('concurrency on a real socket (spec §8)', () => {
  const startServer = mockServers();

  it('§8: 650 requests, 50 at a time, at a frozen clock with a free key: exactly 600 succeed and 50 get 429; 60 s later the window is fresh', async () => {
    const server = await startServer({ clock: FROZEN_AT });
    const results: Array<{ status: number; remaining: number; retryAfter: string | null; body: { error?: { plan_tier?: string } } }> = [];
    let sent = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const worker = async () => {
      while (sent < 650) {
        sent += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const res = await fetch(`${server.apiUrl}/auth/keys?limit=1`, { headers: bearer(KEYS.free) });
        inFlight -= 1;
        results.push({
          status: res.status,
          remaining: readRateLimit(res).remaining,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as { error?: { plan_tier?: string } },
        });
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));

    expect(results).toHaveLength(650);
    expect(maxInFlight).toBe(50);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(600);
    expect(refused).toHaveLength(50);
    // Exact counting: each remaining value from 599 down to 0 was handed out exactly once.
    expect(ok.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    for (const r of refused) {
      expect(r.retryAfter).toBe('60');
      expect(r.remaining).toBe(0);
      expect(r.body.error?.plan_tier).toBe('free');
    }

    await server.admin.clock.advance(60);
    const fresh = await fetch(`${server.apiUrl}/status`, { headers: bearer(KEYS.free) });
    expect(fresh.status).toBe(200);
    expect(readRateLimit(fresh)).toMatchObject({ quota: 600, remaining: 599, resetIn: 60 });
    const body = (await fresh.json()) as { limits: { rate_limit: { remaining: number } } };
    expect(body.limits.rate_limit.remaining).toBe(599);
  });

  it('§5.5: requests without an API key are counted per client IP address', async () => {
    const mock = await startServer({ clock: FROZEN_AT, rateLimit: 'free=2,paid=5' });
    const { port } = mock;
    // Two loopback source addresses are two clients.
    const fromAddress = (localAddress: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/status', localAddress }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const a1 = await fromAddress('127.0.0.1');
    const a2 = await fromAddress('127.0.0.1');
    const b1 = await fromAddress('127.0.0.2');
    const a3 = await fromAddress('127.0.0.1');
    expect([a1.status, a2.status, b1.status]).toEqual([401, 401, 401]);
    expect([readRateLimit(a1).remaining, readRateLimit(a2).remaining, readRateLimit(b1).remaining]).toEqual([1, 0, 1]);
    // Unauthenticated callers get the free tier's quota.
    expect(a3.status).toBe(429);
    expect(JSON.parse(a3.body).error).toMatchObject({ code: 'rate_limit_exceeded', plan_tier: 'free' });
    // A valid key from the exhausted address has its own counter.
    const keyed = await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
    expect(keyed.status).toBe(200);
  });
});

describe('who is counted where (spec §5.5, §8)', () => {
  it('§5.5: missing, malformed and unknown credentials share the IP counter; a revoked key keeps counting on its own key', async () => {
    const app = makeApp();
    const api = client(app);
    const missing = await api.get('/v1/status');
    const malformed = await api.get('/v1/status').set('Authorization', 'Basic abc');
    const unknown = await api.get('/v1/status').set(bearer('cc_test_nobody'));
    expect([missing, malformed, unknown].map((r) => readRateLimit(r).remaining)).toEqual([599, 598, 597]);
    await api.get('/v1/status').set(bearer(KEYS.free));
    await api.post('/__admin/api_keys/key_free_default/revoke');
    const revoked = await api.get('/v1/status').set(bearer(KEYS.free));
    expectError(revoked, 'authentication_required', { message: MESSAGES.authRevoked });
    expect(readRateLimit(revoked).remaining).toBe(598);
  });

  it('§8: a plan change through PATCH /__admin/accounts/{id} moves the key to the new tier at once, keeping the count', async () => {
    const app = makeApp({ rateLimit: 'free=3,paid=5' });
    const api = client(app);
    for (let i = 0; i < 3; i++) await api.get('/v1/status').set(bearer(KEYS.free));
    expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(429);

    expect((await api.patch(`/__admin/accounts/${ACCOUNTS.free}`).send({ plan: 'paid' })).status).toBe(200);
    const upgraded = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(upgraded.status).toBe(200);
    expect(readRateLimit(upgraded)).toMatchObject({ quota: 5, remaining: 1 });
    expect(upgraded.body.limits.rate_limit).toMatchObject({ tier: 'paid', limit: 5, remaining: 1 });

    await api.patch(`/__admin/accounts/${ACCOUNTS.free}`).send({ plan: 'free' });
    expectError(await api.get('/v1/status').set(bearer(KEYS.free)), 'rate_limit_exceeded', {
      message: MESSAGES.rateLimited,
      extra: { plan_tier: 'free' },
    });
  });

  it('§4.13, §2.11: GET /v1/status reports the live counter, its own request included', async () => {
    const app = makeApp();
    const api = client(app);
    for (let i = 0; i < 4; i++) await api.get('/v1/auth/keys').set(bearer(KEYS.free));
    app.sandbox.world.clock.advance(12);
    const res = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(validStatus(res.body), JSON.stringify(validStatus.errors)).toBe(true);
    expect(res.body.limits.rate_limit).toEqual({ tier: 'free', limit: 600, window_seconds: 60, remaining: 595, resets_at: WINDOW_END });
    expect(readRateLimit(res).remaining).toBe(595);
    expect(res.body.limits.pagination).toEqual({ default_limit: 15, max_limit: 100 });
  });

  it('contract §3.1: reset returns every counter to zero', async () => {
    const app = makeApp({ rateLimit: 'free=1,paid=1' });
    const api = client(app);
    await api.get('/v1/status').set(bearer(KEYS.free));
    expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(429);
    await api.post('/__admin/reset');
    expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });
});

describe('the --rate-limit setting (contract §1)', () => {
  it('off: nothing is ever refused, but the headers are still sent', async () => {
    const app = makeApp({ rateLimit: 'off' });
    const api = client(app);
    for (let i = 0; i < 600; i++) expect((await api.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    const last = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(last.status).toBe(200);
    expect(readRateLimit(last)).toMatchObject({ quota: 600, remaining: 0 });
    expect(last.body.limits.rate_limit.remaining).toBe(0);
  });

  it('free=N,paid=M sets both quotas; a part left out keeps the spec value', async () => {
    const api = client(makeApp({ rateLimit: 'free=5000' }));
    expect(readRateLimit(await api.get('/v1/status').set(bearer(KEYS.free))).quota).toBe(5000);
    expect(readRateLimit(await api.get('/v1/status').set(bearer(KEYS.paid))).quota).toBe(3000);
    expect(parseRateLimit('paid=10000, free=2000')).toEqual({ ...SPEC_RATE_LIMIT, free: 2000, paid: 10000 });
    expect(parseRateLimit('spec')).toEqual(SPEC_RATE_LIMIT);
    expect(parseRateLimit('off')).toEqual({ ...SPEC_RATE_LIMIT, enforce: false });
  });

  it.each(['', 'none', 'free=0', 'free=-1', 'free=abc', 'gold=3', 'free=1,free=2', 'free=1;paid=2', 'free=99999999999999999999'])(
    'refuses %j naming the setting',
    (value) => {
      expect(() => parseRateLimit(value)).toThrow(ConfigError);
      expect(() => makeApp({ rateLimit: value })).toThrow(/^rate-limit: expected spec, off or free=N,paid=M/);
    },
  );

  it('names the flag or the environment variable the bad value came from', () => {
    expect(() => parseCliSettings(['--rate-limit', 'free=0'], {})).toThrow(/^--rate-limit: /);
    expect(() => parseCliSettings([], { MOCK_RATE_LIMIT: 'lots' })).toThrow(/^MOCK_RATE_LIMIT: /);
    expect(parseCliSettings([], { MOCK_RATE_LIMIT: 'free=10,paid=20' }).options.rateLimit).toBe('free=10,paid=20');
  });
});

describe('clientIp (spec §5.5)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::1', '::1'],
    ['2001:db8::ffff:1', '2001:db8::ffff:1'],
  ])('§5.5: %s is counted as client %s', (ip, expected) => {
    expect(clientIp({ ip } as SandboxContext)).toBe(expected);
  });
});

describe('RateLimiter (spec §8 fixed windows)', () => {
  const at = (iso: string) => Date.parse(iso);

  it('§8: windows are aligned to multiples of 60 s of the virtual clock', () => {
    const limiter = new RateLimiter({ ...SPEC_RATE_LIMIT, free: 2 });
    expect(limiter.consume('key:a', 'free', at('2026-01-15T12:00:59.900Z'))).toMatchObject({
      remaining: 1,
      secondsUntilReset: 1,
      allowed: true,
    });
    expect(limiter.consume('key:a', 'free', at('2026-01-15T12:00:59.950Z'))).toMatchObject({ remaining: 0, allowed: true });
    expect(limiter.consume('key:a', 'free', at('2026-01-15T12:00:59.999Z'))).toMatchObject({ remaining: 0, allowed: false });
    const next = limiter.consume('key:a', 'free', at('2026-01-15T12:01:00.000Z'));
    expect(next).toMatchObject({ remaining: 1, secondsUntilReset: 60, allowed: true, resetAt: at('2026-01-15T12:02:00Z') });
  });

  it('§8: keeps counters of the current window only (a new window drops the old ones)', () => {
    const limiter = new RateLimiter(SPEC_RATE_LIMIT);
    for (let i = 0; i < 100; i += 1) limiter.consume(`ip:10.0.0.${i}`, 'free', at('2026-01-15T12:00:10Z'));
    expect(limiter.subjects).toBe(100);
    expect(limiter.peek('ip:10.0.0.1', 'free', at('2026-01-15T12:00:59Z')).remaining).toBe(599);
    // Peeking into the next window counts nothing and drops nothing.
    expect(limiter.peek('ip:10.0.0.1', 'free', at('2026-01-15T12:01:00Z')).remaining).toBe(600);
    expect(limiter.subjects).toBe(100);
    expect(limiter.consume('key:a', 'free', at('2026-01-15T12:01:00Z')).remaining).toBe(599);
    expect(limiter.subjects).toBe(1);
    expect(limiter.peek('ip:10.0.0.1', 'free', at('2026-01-15T12:01:30Z')).remaining).toBe(600);
  });

  it('§8: peek reports without counting', () => {
    const limiter = new RateLimiter(SPEC_RATE_LIMIT);
    const now = at(FROZEN_AT);
    limiter.consume('ip:1.2.3.4', 'free', now);
    expect(limiter.peek('ip:1.2.3.4', 'free', now).remaining).toBe(599);
    expect(limiter.peek('ip:1.2.3.4', 'free', now).remaining).toBe(599);
    expect(limiter.peek('ip:5.6.7.8', 'free', now).remaining).toBe(600);
  });
});
