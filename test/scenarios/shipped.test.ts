/**
 * Contract §3.5: the scenarios of its table, each with exactly its documented effect and params. The
 * other shipped ones have files of their own: the transport faults of §4.2 in faults-*.test.ts, the
 * webhook twists of §4.3 in test/webhooks/scenarios.test.ts.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { DEFAULT_FAILURE } from '../../src/jobs/outcome.js';
import { compileSchema } from '../../src/operations/validation.js';
import { createApiKey } from '../../src/resources/api-keys/operations.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { accountState, advance, createCrawl, pollJob } from '../support/jobs.js';
import { mockServers, readDeprecation, readRateLimit, retryAfter, unixSecondsOf } from '../support/protocol.js';
import { activate, activeScenarios, journal } from '../support/scenarios.js';

const validKey = compileSchema(createApiKey.success.schema);

describe('rate-limited (contract §3.5; spec §8)', () => {
  it('§8: answers 429 rate_limit_exceeded with Retry-After, RateLimit r=0 and plan_tier in the error object', async () => {
    const app = makeApp();
    const c = client(app);
    await activate(c, { name: 'rate-limited' });
    const res = await c.get('/v1/auth/keys').set(bearer(KEYS.free));
    expectError(res, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'free' } });
    const reading = readRateLimit(res);
    expect(reading).toMatchObject({
      quota: 600,
      window: 60,
      remaining: 0,
      legacyRemaining: 0,
      resetIn: 60,
      legacyReset: unixSecondsOf('2026-01-15T12:01:00Z'),
    });
    // Without `retry_after`, Retry-After is the time to the window's reset, like the limiter's own 429.
    expect(retryAfter(res)).toBe(reading.resetIn);
  });

  it('§8: `retry_after` sets Retry-After; the paid tier says plan_tier paid', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'rate-limited', params: { retry_after: 7 } });
    const res = await c.post('/v1/auth/keys').set(bearer(KEYS.paid)).send({});
    expectError(res, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'paid' } });
    expect(retryAfter(res)).toBe(7);
    expect(readRateLimit(res)).toMatchObject({ quota: 3000, remaining: 0 });
  });

  it('`retry_after` is the time to the simulated reset: RateLimit t and X-RateLimit-Reset agree with Retry-After', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'rate-limited', params: { retry_after: 2 } });
    const viaActivation = await c.get('/v1/status').set(bearer(KEYS.free));
    const viaPrefer = await c.get('/v1/status').set(bearer(KEYS.paid)).set('Prefer', 'scenario=rate-limited; retry_after=2');
    for (const res of [viaActivation, viaPrefer]) {
      expect(res.status).toBe(429);
      expect(retryAfter(res)).toBe(2);
      expect(readRateLimit(res)).toMatchObject({ remaining: 0, resetIn: 2, legacyReset: unixSecondsOf(FROZEN_AT) + 2 });
    }
  });

  it('§8: the refused request is not counted, as a real 429 is not; the counter resumes where it was', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free));
    await activate(c, { name: 'rate-limited', times: 2 });
    await c.get('/v1/status').set(bearer(KEYS.free));
    await c.get('/v1/status').set(bearer(KEYS.free));
    const after = await c.get('/v1/status').set(bearer(KEYS.free));
    expect(after.status).toBe(200);
    expect(readRateLimit(after).remaining).toBe(598);
  });

  it('§8: forces a 429 even with --rate-limit off', async () => {
    const c = client(makeApp({ rateLimit: 'off' }));
    await activate(c, { name: 'rate-limited', params: { retry_after: 0 } });
    const res = await c.get('/v1/status').set(bearer(KEYS.free));
    expectError(res, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'free' } });
    expect(retryAfter(res)).toBe(0);
  });

  it('contract §3.5: a retry_after that is not an integer from 0 to 86400 is refused with 422 naming the param', async () => {
    const c = client(makeApp());
    for (const retry_after of [-1, 86401, 1.5, '5']) {
      const res = await c.post('/__admin/scenarios').send({ name: 'rate-limited', params: { retry_after } });
      expectError(res, 'validation_failed', {
        api: false,
        param: 'params.retry_after',
        errors: { 'params.retry_after': [expect.any(String)] },
      });
    }
    expect(await activeScenarios(c)).toEqual([]);
  });
});

describe('crawl-fails (contract §3.5; spec §3)', () => {
  it('§3: a crawl job goes queued -> processing -> failed with error and error_code, and charges no credits', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'crawl-fails', params: { error_code: 'site_unreachable', error: 'DNS lookup failed.' } });
    const before = (await accountState(c, ACCOUNTS.free)).credits;
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });
    expect(job).toMatchObject({ status: 'queued', error: null, error_code: null });
    await advance(c, 1.25);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'processing', error: null, error_code: null });
    await advance(c, 3600);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({
      status: 'failed',
      progress: 50,
      error: 'DNS lookup failed.',
      error_code: 'site_unreachable',
      result: null,
      credits_used: 0,
    });
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual(before);
  });

  it('§3: without params the job fails with the documented default error and code', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'crawl-fails' });
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await advance(c, 3600);
    expect(await pollJob(c, KEYS.free, job.id)).toMatchObject({ status: 'failed', ...DEFAULT_FAILURE });
  });

  it('contract §3.5: `times` counts jobs: a refused crawl and other requests use nothing up', async () => {
    const c = client(makeApp());
    const active = await activate(c, { name: 'crawl-fails', times: 1 });
    await c.get('/v1/status').set(bearer(KEYS.free));
    const refused = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'ftp://example.com/' });
    expect(refused.status).toBe(422);
    expect((await activeScenarios(c)).map((s) => s.remaining)).toEqual([1]);
    const failing = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    const completing = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await advance(c, 3600);
    expect((await pollJob(c, KEYS.free, failing.id)).status).toBe('failed');
    expect((await pollJob(c, KEYS.free, completing.id)).status).toBe('completed');
    expect(await activeScenarios(c)).toEqual([]);
    const entries = await journal(c, '?operation_id=crawlSite');
    expect(entries.map((e) => [e.status, e.scenario_ids])).toEqual([
      [201, []],
      [201, [active.id]],
      [422, []],
    ]);
  });

  it('contract §3.5: jobs created before activation keep their outcome', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await activate(c, { name: 'crawl-fails' });
    await advance(c, 3600);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('completed');
  });
});

describe('keys-expired (contract §3.5; spec §5)', () => {
  it('§5: the scoped key answers 401 authentication_required; the key record is unchanged and works again once deactivated', async () => {
    const c = client(makeApp());
    const active = await activate(c, { name: 'keys-expired', api_key_id: 'key_free_default' });
    expectError(await c.get('/v1/status').set(bearer(KEYS.free)), 'authentication_required', { message: MESSAGES.authExpired });
    expectError(await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({}), 'authentication_required', {
      message: MESSAGES.authExpired,
    });
    // Another key of the same account is not in scope.
    expect((await c.get('/v1/status').set(bearer(KEYS.freeReadOnly))).status).toBe(200);
    const keys = ((await accountState(c, ACCOUNTS.free)) as unknown as { api_keys: Array<Record<string, unknown>> }).api_keys;
    expect(keys.find((k) => k.id === 'key_free_default')).toMatchObject({ expires_at: null, revoked_at: null });
    expect((await c.delete(`/__admin/scenarios/${active.id}`)).status).toBe(200);
    expect((await c.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('§5: requests without a usable key keep their own 401 message (there is no key to expire)', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'keys-expired' });
    expectError(await c.get('/v1/status'), 'authentication_required', { message: MESSAGES.authMissing });
    expectError(await c.get('/v1/status').set(bearer('cc_test_unknown_token')), 'authentication_required', {
      message: MESSAGES.authUnknown,
    });
    expect((await journal(c)).map((e) => e.scenario_ids)).toEqual([[], []]);
  });
});

describe('server-error (contract §3.5; spec §7.2, §7.3.5)', () => {
  it('§7.2: answers 500 internal_error in the envelope and the operation does not run', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'server-error' });
    expectError(await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'never' }), 'internal_error', {
      message: MESSAGES.internal,
    });
    await c.delete('/__admin/scenarios');
    const keys = await c.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('never');
  });

  it('§7.3.5: a 500 is not remembered under an Idempotency-Key: the retry after the scenario runs the operation, and is then replayed', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'server-error', times: 1 });
    const send = () => c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'retry-me').send({ name: 'ci' });
    expectError(await send(), 'internal_error', { message: MESSAGES.internal });
    const created = await send();
    expect(created.status).toBe(201);
    expect(validKey(created.body)).toBe(true);
    const replayed = await send();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(created.body);
    expect((await journal(c)).map((e) => [e.status, e.idempotent_replayed])).toEqual([
      [201, true],
      [201, false],
      [500, false],
    ]);
  });

  it('§7.3.5: neither is a rate-limited 429 remembered: the retry runs', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'rate-limited', times: 1 });
    const send = () => c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'after-429').send({});
    expect((await send()).status).toBe(429);
    expect((await send()).status).toBe(201);
  });
});

describe('slow-responses (contract §3.5)', () => {
  const start = mockServers();

  it('contract §3.5: answers after a real delay of delay_ms', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'slow-responses', api_key_id: 'key_free_default', params: { delay_ms: 300 } });
    const began = performance.now();
    const res = await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
    expect(res.status).toBe(200);
    // A real timer never fires early by more than clock granularity (a lower bound: load only adds).
    expect(performance.now() - began).toBeGreaterThanOrEqual(295);
  });

  it('a delayed request does not hold up the others (event order, no wall-clock budget)', async () => {
    const mock = await start({ clock: FROZEN_AT, scenarios: ['slow-responses;api_key_id=key_free_default;delay_ms=30000;times=5'] });
    let slowSettled = false;
    const slow = fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }).then(
      () => (slowSettled = true),
      () => (slowSettled = true),
    );
    // Until the slow request is waiting in the sandbox: the scenario counts it when the wait begins.
    while ((await mock.admin.scenarios.list()).active[0]?.remaining !== 4) await new Promise((r) => setTimeout(r, 5));
    const fast = await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.paid) });
    expect(fast.status).toBe(200);
    expect(slowSettled).toBe(false);
    await mock.close();
    await slow;
  });

  it('contract §3.5: delay_ms is bounded: above 30000 is refused with 422', async () => {
    const c = client(makeApp());
    const res = await c.post('/__admin/scenarios').send({ name: 'slow-responses', params: { delay_ms: 30_001 } });
    expectError(res, 'validation_failed', { api: false, param: 'params.delay_ms', errors: { 'params.delay_ms': ['must be <= 30000'] } });
  });

  it('contract §1: closing the server ends the wait of a delayed request and answers it (in-flight requests finish)', async () => {
    const mock = await start({ clock: FROZEN_AT, scenarios: ['slow-responses;delay_ms=30000;times=5'] });
    const pending = fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }).then(
      (res) => `answered ${res.status}`,
      () => 'connection closed',
    );
    // Until the request is waiting in the sandbox: the scenario counts it when the wait begins.
    while ((await mock.admin.scenarios.list()).active[0]?.remaining !== 4) await new Promise((r) => setTimeout(r, 5));
    // Were the close to wait for the 30 s delay, the test would time out first: no budget needed.
    expect(await mock.close()).toEqual({ cut: 0 });
    expect(await pending).toBe('answered 200');
  });
});

describe('deprecated-operations (contract §3.5; spec §9)', () => {
  it('§9: the operation answers with Deprecation, Sunset and Link rel="deprecation" from the params', async () => {
    const app = makeApp();
    const c = client(app);
    await activate(c, {
      name: 'deprecated-operations',
      operation_id: 'listApiKeys',
      params: { deprecated_at: '2026-02-01T00:00:00Z', sunset: '2026-09-01T00:00:00Z', link: 'https://docs.example.com/keys-v2' },
    });
    const res = await c.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    expect(readDeprecation(res).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(res.headers.sunset).toBe('Tue, 01 Sep 2026 00:00:00 GMT');
    expect(res.headers.link).toBe('<https://docs.example.com/keys-v2>; rel="deprecation"');
    // §9.4: only on the deprecated operation.
    const other = await c.get('/v1/status').set(bearer(KEYS.free));
    expect([other.headers.deprecation, other.headers.sunset, other.headers.link]).toEqual([undefined, undefined, undefined]);
  });

  it('spec §9.3: the defaults are Deprecation 2026-01-01, Sunset a year later (six months by every reading), and a Link; errors carry them too', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'deprecated-operations', operation_id: 'getJob' });
    const res = await c.get('/v1/jobs/job_nope').set(bearer(KEYS.free));
    expectError(res, 'resource_missing', { param: 'id', message: "No such job: 'job_nope'." });
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.headers.sunset).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
    expect(Date.parse(res.headers.sunset as string) - Date.parse('2026-01-01T00:00:00Z')).toBeGreaterThanOrEqual(183 * 86_400_000);
    expect(res.headers.link).toBe('<https://docs.example.com/deprecations>; rel="deprecation"');
  });

  it('§9: the operation is flagged deprecated for the API description while the scenario covers every caller of it', async () => {
    const app = makeApp();
    const c = client(app);
    const isDeprecated = (id: string) => app.sandbox.world.deprecations.isDeprecated(id);
    const scoped = await activate(c, { name: 'deprecated-operations', operation_id: 'listApiKeys' });
    expect([isDeprecated('listApiKeys'), isDeprecated('getStatus')]).toEqual([true, false]);
    await c.delete(`/__admin/scenarios/${scoped.id}`);
    expect(isDeprecated('listApiKeys')).toBe(false);
    // Narrowed to one account: other callers get no headers, so the shared document does not flag it.
    await activate(c, { name: 'deprecated-operations', operation_id: 'listApiKeys', account_id: ACCOUNTS.free });
    expect(isDeprecated('listApiKeys')).toBe(false);
    // Not narrowed to an operation: every operation is deprecated.
    await activate(c, { name: 'deprecated-operations' });
    expect(OPERATIONS.map((op) => op.operationId).filter((id) => !isDeprecated(id))).toEqual([]);
    await c.post('/__admin/reset');
    expect(isDeprecated('listApiKeys')).toBe(false);
  });

  it('§9.2: /openapi.json flags the operation deprecated while the scenario is active, and not once it ends', async () => {
    const c = client(makeApp());
    const flagged = async () => {
      const doc = (await c.get('/openapi.json')).body as {
        paths: Record<string, Record<string, { operationId: string; deprecated?: boolean }>>;
      };
      return Object.values(doc.paths)
        .flatMap((item) => Object.values(item))
        .filter((op) => op.deprecated)
        .map((op) => op.operationId);
    };
    expect(await flagged()).toEqual([]);
    await activate(c, { name: 'deprecated-operations', operation_id: 'listExperiences', account_id: ACCOUNTS.free });
    expect(await flagged()).toEqual([]);
    const active = await activate(c, { name: 'deprecated-operations', operation_id: 'listExperiences', times: 1 });
    expect(await flagged()).toEqual(['listExperiences']);
    // Every caller now gets the headers, as the document says.
    const res = await c.get('/v1/experiences').set(bearer(KEYS.paid));
    expect([res.status, res.headers.deprecation]).toEqual([200, '@1767225600']);
    expect(await activeScenarios(c)).not.toContainEqual(expect.objectContaining({ id: active.id }));
    expect(await flagged()).toEqual([]);
  });

  it('§9: a sunset less than six months after deprecated_at is refused with 422 naming the param', async () => {
    const c = client(makeApp());
    // Six calendar months after the default deprecated_at, but only 181 days: spec §9.3's "six months" is held to both readings.
    const early = await c.post('/__admin/scenarios').send({ name: 'deprecated-operations', params: { sunset: '2026-07-01T00:00:00Z' } });
    expectError(early, 'validation_failed', {
      api: false,
      param: 'params.sunset',
      errors: { 'params.sunset': [expect.stringMatching(/^must be at least 6 calendar months and 183 days after deprecated_at/)] },
    });
    const late = await c
      .post('/__admin/scenarios')
      .send({ name: 'deprecated-operations', params: { deprecated_at: '2026-08-01T00:00:00Z' } });
    expectError(late, 'validation_failed', {
      api: false,
      param: 'params.deprecated_at',
      errors: { 'params.deprecated_at': [expect.stringMatching(/^must be at least 6 calendar months and 183 days/)] },
    });
    const notADate = await c.post('/__admin/scenarios').send({ name: 'deprecated-operations', params: { sunset: 'next year' } });
    expectError(notADate, 'validation_failed', {
      api: false,
      param: 'params.sunset',
      errors: { 'params.sunset': ['must be a valid date-time'] },
    });
  });
});
