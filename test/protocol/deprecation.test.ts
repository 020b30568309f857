import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { announceDeprecation } from '../../src/http/announce-deprecation.js';
import {
  DeprecationRegistry,
  DeprecationRuleError,
  deprecationHeaders,
  earliestSunset,
  MIN_SUNSET_DAYS,
  parseDeprecation,
  sixCalendarMonthsAfter,
  type DeprecationConfig,
  type DeprecationInfo,
} from '../../src/protocol/deprecation.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';
import { FixtureError } from '../../src/fixture/fixture-file.js';
import { bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { readDeprecation, writeFixture } from '../support/protocol.js';

const LIST_KEYS: DeprecationConfig = {
  operation_id: 'listApiKeys',
  deprecated_at: '2026-01-01T00:00:00Z',
  sunset: '2027-01-01T00:00:00Z',
  link: 'https://docs.example.com/migrations/list-keys',
};

const fixtureWith = (deprecations: unknown[]) => writeFixture({ deprecations });

function expectDeprecated(res: { headers: Record<string, string | string[] | undefined> }, config: DeprecationConfig): void {
  expect(readDeprecation(res).getTime()).toBe(Date.parse(config.deprecated_at));
  expect(res.headers.sunset).toBe(new Date(config.sunset).toUTCString());
  expect(Date.parse(res.headers.sunset as string)).toBe(Date.parse(config.sunset));
  expect(res.headers.link).toBe(`<${config.link}>; rel="deprecation"`);
}

function expectNotDeprecated(res: { headers: Record<string, string | string[] | undefined> }): void {
  expect(res.headers.deprecation).toBeUndefined();
  expect(res.headers.sunset).toBeUndefined();
  expect(res.headers.link).toBeUndefined();
}

describe('a deprecated operation (spec §9)', () => {
  it('§9: answers Deprecation as an RFC 9651 Date, Sunset as an HTTP-date and Link rel="deprecation"', async () => {
    const api = client(makeApp({ fixtures: fixtureWith([LIST_KEYS]) }));
    const res = await api.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    expectDeprecated(res, LIST_KEYS);
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.headers.sunset).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
  });

  it('§9.4: other operations never carry the headers, not even another method on the same path', async () => {
    const api = client(makeApp({ fixtures: fixtureWith([LIST_KEYS]) }));
    expectNotDeprecated(await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({}));
    expectNotDeprecated(await api.get('/v1/status').set(bearer(KEYS.free)));
    expectNotDeprecated(await api.get('/v1/unknown').set(bearer(KEYS.free)));
    expectNotDeprecated(await api.get('/__admin/health'));
  });

  it('§9: the headers are on every answer of the operation, its errors included', async () => {
    const api = client(makeApp({ fixtures: fixtureWith([LIST_KEYS]) }));
    const unauthenticated = await api.get('/v1/auth/keys');
    expectError(unauthenticated, 'authentication_required', { message: MESSAGES.authMissing });
    expectDeprecated(unauthenticated, LIST_KEYS);
    const invalid = await api.get('/v1/auth/keys?limit=0').set(bearer(KEYS.free));
    expectError(invalid, 'bad_request', { param: 'limit', message: MESSAGES.invalidQuery('limit', 'must be >= 1') });
    expectDeprecated(invalid, LIST_KEYS);
  });

  it('§9: a 429 is answered before the operation is known, so it carries no deprecation headers', async () => {
    const api = client(makeApp({ fixtures: fixtureWith([LIST_KEYS]), rateLimit: 'free=1,paid=1' }));
    await api.get('/v1/auth/keys').set(bearer(KEYS.free));
    const refused = await api.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(refused.status).toBe(429);
    expectNotDeprecated(refused);
  });

  it('§9: a deprecation announced for a future date is served already (RFC 9745 allows future dates)', async () => {
    const future = { ...LIST_KEYS, deprecated_at: '2026-03-01T00:00:00Z', sunset: '2026-09-01T00:00:00Z' };
    const res = await client(makeApp({ fixtures: fixtureWith([future]) }))
      .get('/v1/auth/keys')
      .set(bearer(KEYS.free));
    expectDeprecated(res, future);
  });

  it('§9: the deprecations option of createApp marks operations and overrides the fixture for the same one', async () => {
    const fromOption = { ...LIST_KEYS, sunset: '2027-02-01T00:00:00Z', link: '/docs/keys-v2' };
    const status = {
      operation_id: 'getStatus',
      deprecated_at: '2025-12-01T00:00:00+01:00',
      sunset: '2026-06-03T00:00:00+01:00',
      link: 'https://x.test/s',
    };
    const api = client(makeApp({ fixtures: fixtureWith([LIST_KEYS]), deprecations: [fromOption, status] }));
    expectDeprecated(await api.get('/v1/auth/keys').set(bearer(KEYS.free)), fromOption);
    const res = await api.get('/v1/status').set(bearer(KEYS.free));
    expectDeprecated(res, status);
    expect(res.headers.deprecation).toBe('@1764543600');
  });
});

describe('scenarios and the registry (spec §9; contract §3.5 deprecated-operations)', () => {
  it('§9: an operation marked at run time answers with the headers from the next request on; unmarking removes them; reset restores boot', async () => {
    const app = makeApp({ fixtures: fixtureWith([LIST_KEYS]) });
    const api = client(app);
    const info = parseDeprecation({ ...LIST_KEYS, operation_id: 'getStatus' });
    app.sandbox.world.deprecations.set(info);
    expectDeprecated(await api.get('/v1/status').set(bearer(KEYS.free)), { ...LIST_KEYS, operation_id: 'getStatus' });
    expect(app.sandbox.world.deprecations.isDeprecated('getStatus')).toBe(true);
    expect(app.sandbox.world.deprecations.delete('getStatus')).toBe(true);
    expectNotDeprecated(await api.get('/v1/status').set(bearer(KEYS.free)));
    app.sandbox.world.deprecations.delete('listApiKeys');
    await api.post('/__admin/reset');
    expectDeprecated(await api.get('/v1/auth/keys').set(bearer(KEYS.free)), LIST_KEYS);
    expect(app.sandbox.world.deprecations.get('listApiKeys')?.operationId).toBe('listApiKeys');
    expect(app.sandbox.world.deprecations.get('getStatus')).toBeUndefined();
  });

  it('§9: a deprecation announced for one request applies to that request only', async () => {
    const app = makeApp();
    const info = parseDeprecation({ ...LIST_KEYS, operation_id: 'getStatus' });
    // What a scenario matching one request does: it sets the deprecation before the operation runs.
    // Right inside the writer, where every middleware of the app may stage headers.
    const inside = app.middleware.findIndex((m) => m.name === 'sendReplyMiddleware') + 1;
    expect(inside).toBeGreaterThan(0);
    app.middleware.splice(inside, 0, async (ctx, next) => {
      if (ctx.get('X-Test-Deprecate') === 'yes') announceDeprecation(ctx, info);
      await next();
    });
    const api = client(app);
    expectDeprecated(await api.get('/v1/status').set(bearer(KEYS.free)).set('X-Test-Deprecate', 'yes'), {
      ...LIST_KEYS,
      operation_id: 'getStatus',
    });
    expectNotDeprecated(await api.get('/v1/status').set(bearer(KEYS.free)));
  });

  it('spec §9.3: the registry refuses a sunset six calendar months but fewer than 183 days after the deprecation', () => {
    const registry = new DeprecationRegistry();
    const info: DeprecationInfo = {
      operationId: 'getStatus',
      deprecatedAt: Date.parse('2026-01-01T00:00:00Z'),
      sunset: Date.parse('2026-07-01T00:00:00Z'),
      link: '/x',
    };
    expect(() => registry.set(info)).toThrow(DeprecationRuleError);
    expect(registry.isDeprecated('getStatus')).toBe(false);
  });

  it('§9: deprecationHeaders formats the three headers for a scenario to set', () => {
    const info = parseDeprecation(LIST_KEYS);
    expect(deprecationHeaders(info)).toEqual({
      Deprecation: '@1767225600',
      Sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
      Link: '<https://docs.example.com/migrations/list-keys>; rel="deprecation"',
    });
  });
});

describe('the six-month rule and other checks at load (spec §8, §9)', () => {
  it('§9: six calendar months keep the time of day, a day past the month end clamping to its last day', () => {
    const at = (iso: string) => new Date(sixCalendarMonthsAfter(Date.parse(iso))).toISOString();
    expect(at('2026-01-15T12:00:00Z')).toBe('2026-07-15T12:00:00.000Z');
    expect(at('2026-08-31T10:00:00Z')).toBe('2027-02-28T10:00:00.000Z');
    expect(at('2027-08-31T10:00:00Z')).toBe('2028-02-29T10:00:00.000Z');
    expect(at('2026-12-31T23:59:59Z')).toBe('2027-06-30T23:59:59.000Z');
  });

  it('spec §9.3 "always at least six months after": a sunset must satisfy calendar months and day arithmetic both', () => {
    const at = (iso: string) => new Date(earliestSunset(Date.parse(iso))).toISOString();
    // Six calendar months from January 1 is only 181 days: a client counting 183 days would reject it.
    expect(at('2026-01-01T00:00:00Z')).toBe('2026-07-03T00:00:00.000Z');
    // From July 1 six calendar months are 184 days: the calendar reading is the later one.
    expect(at('2026-07-01T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(MIN_SUNSET_DAYS).toBe(183);
  });

  it('spec §9.3: six calendar months but fewer than 183 days is refused naming the option and the field; 183 days is accepted', () => {
    const sixCalendarMonths = { ...LIST_KEYS, sunset: '2026-07-01T00:00:00Z' };
    expect(() => makeApp({ deprecations: [sixCalendarMonths] })).toThrow(ConfigError);
    expect(() => makeApp({ deprecations: [sixCalendarMonths] })).toThrow(
      /^deprecations\[0\]\.sunset: must be at least 6 calendar months and 183 days after deprecated_at \(2026-01-01T00:00:00.000Z\): the earliest allowed is 2026-07-03T00:00:00.000Z/,
    );
    expect(() => makeApp({ deprecations: [{ ...LIST_KEYS, sunset: '2026-07-03T00:00:00Z' }] })).not.toThrow();
    expect(() => makeApp({ deprecations: [{ ...LIST_KEYS, sunset: '2026-07-02T23:59:59Z' }] })).toThrow(ConfigError);
  });

  it('§9: a fixture whose sunset breaks the rule is refused naming the file and the JSON path', () => {
    const file = fixtureWith([LIST_KEYS, { ...LIST_KEYS, operation_id: 'getStatus', sunset: '2026-02-01T00:00:00Z' }]);
    expect(() => makeApp({ fixtures: file })).toThrow(FixtureError);
    expect(() => makeApp({ fixtures: file })).toThrow(
      /fixture .*fixture\.json at \/deprecations\/1\/sunset: must be at least 6 calendar months and 183 days after deprecated_at/,
    );
  });

  it.each([
    [
      { ...LIST_KEYS, operation_id: 'listKeys' },
      /at \/deprecations\/0\/operation_id: unknown operation 'listKeys' \(known operations: .*listApiKeys/,
    ],
    [{ ...LIST_KEYS, link: 'has a space' }, /at \/deprecations\/0\/link: must be a URI reference/],
    [{ ...LIST_KEYS, link: '<https://x>' }, /at \/deprecations\/0\/link: must be a URI reference/],
    [
      { ...LIST_KEYS, deprecated_at: '2026-01-01T00:00:00' },
      /at \/deprecations\/0\/deprecated_at: must be an ISO 8601 date-time with a time zone/,
    ],
    [{ ...LIST_KEYS, sunset: 'next year' }, /at \/deprecations\/0\/sunset: must be an ISO 8601 date-time with a time zone/],
    [
      { operation_id: 'listApiKeys', deprecated_at: LIST_KEYS.deprecated_at, sunset: LIST_KEYS.sunset },
      /at \/deprecations\/0: missing field 'link'/,
    ],
    [{ ...LIST_KEYS, since: 'v1' }, /at \/deprecations\/0: unknown field 'since'/],
  ])('§9: a fixture deprecation %j is refused at load', (entry, message) => {
    expect(() => makeApp({ fixtures: fixtureWith([entry]) })).toThrow(message);
  });

  it('§9: an operation listed twice in a fixture is refused', () => {
    expect(() => makeApp({ fixtures: fixtureWith([LIST_KEYS, LIST_KEYS]) })).toThrow(
      /at \/deprecations\/1\/operation_id: operation 'listApiKeys' is listed twice/,
    );
  });

  it.each([
    [[{ ...LIST_KEYS, operation_id: 'nope' }], /^deprecations\[0\]\.operation_id: unknown operation 'nope'/],
    [[LIST_KEYS, { ...LIST_KEYS }], /^deprecations\[1\]\.operation_id: operation 'listApiKeys' is listed twice/],
    [[{ ...LIST_KEYS, link: '' }], /^deprecations\[0\]\.link: must be a URI reference/],
    [[{ ...LIST_KEYS, sunset: undefined }], /^deprecations\[0\]\.sunset: is required/],
    [['listApiKeys'], /^deprecations\[0\]: must be an object/],
    ['listApiKeys', /^deprecations: expected a list/],
  ])('§9: the deprecations option %j is refused naming the entry and field', (deprecations, message) => {
    expect(() => makeApp({ deprecations: deprecations as DeprecationConfig[] })).toThrow(message);
  });

  it('§9: the CLI refuses such a fixture with exit code 2 and one line naming the file and path', () => {
    const file = fixtureWith([{ ...LIST_KEYS, sunset: '2026-03-01T00:00:00Z' }]);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--fixtures', file], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^creator-commerce-mock: fixture .*fixture\.json at \/deprecations\/0\/sunset: must be at least 6 calendar months and 183 days after deprecated_at/,
    );
    expect(run.stdout).toBe('');
  });
});
