/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveOptions } from '../src/config/options.js';
import { MAX_BODY_DEPTH } from '../src/http/json-body.js';
import { MESSAGES } from '../src/errors/messages.js';
import { createJob } from '../src/jobs/create.js';
import { availableCredits } from '../src/jobs/settle.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from './support/harness.js';

describe('date-times (spec §2: ISO 8601) are instants with a time zone', () => {
  it('refuses a leap second on the admin clock with 422 and keeps serving', async () => {
    const app = makeApp();
    const res = await client(app).post('/__admin/clock').send({ now: '2026-06-30T23:59:60Z' });
    expectError(res, 'validation_failed', { api: false, param: 'now', errors: { now: ['must be a valid date-time'] } });
    expect((await client(app).get('/__admin/clock')).body.now).toBe('2026-01-15T12:00:00.000Z');
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('refuses a date-time without a time zone in admin bodies (it would depend on the machine)', async () => {
    const res = await client(makeApp()).post('/__admin/api_keys').send({ account_id: ACCOUNTS.free, expires_at: '2026-02-01T00:00:00' });
    expectError(res, 'validation_failed', { api: false, param: 'expires_at', errors: { expires_at: ['must be a valid date-time'] } });
  });

  it('refuses --clock without a time zone', () => {
    expect(() => resolveOptions({ clock: '2026-01-01T00:00:00' })).toThrow(ConfigError);
    expect(resolveOptions({ clock: '2026-01-01T01:00:00+01:00' }).clock.start).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});

describe('the admin API reads fixtures by name only', () => {
  it.each(['../package.json', '/etc/passwd', 'fixtures/default.json', 'Default'])('refuses %s with 422 and quotes no file', async (fixture) => {
    const res = await client(makeApp()).post('/__admin/accounts').send({ fixture });
    expect(res.status).toBe(422);
    expect(res.body.error.param).toBe('fixture');
    expect(res.text).not.toMatch(/creator-commerce-mock"|root:/);
  });

  it('answers an unknown fixture name without echoing loader details', async () => {
    const res = await client(makeApp()).post('/__admin/accounts').send({ fixture: 'nope' });
    expectError(res, 'validation_failed', { api: false, param: 'fixture', errors: { fixture: ["no such fixture: 'nope'"] } });
  });
});

describe('spec §1: JSON bodies', () => {
  it(`refuses bodies nested deeper than ${MAX_BODY_DEPTH} levels with 400 and creates nothing`, async () => {
    const app = makeApp();
    const deep = `{"name":null,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).set('Content-Type', 'application/json').set('Idempotency-Key', 'deep-1').send(deep);
    expectError(res, 'bad_request', { message: MESSAGES.bodyTooDeep(MAX_BODY_DEPTH) });
  });
});

describe('spec §5.1: the Bearer scheme', () => {
  it('accepts the scheme name in any case (RFC 9110 §11.1)', async () => {
    const res = await client(makeApp()).get('/v1/status').set('Authorization', `bearer ${KEYS.free}`);
    expect(res.status).toBe(200);
  });
});

describe('contract §1: --seed', () => {
  it('keeps the seed as typed: 007 and 7 seed different data', () => {
    expect(resolveOptions({ seed: '007' }).seed).not.toBe(resolveOptions({ seed: '7' }).seed);
  });
});

describe('credits held by unfinished jobs', () => {
  it('counts a job created before the ledger was first read exactly once', () => {
    const app = makeApp();
    const { sandbox } = app;
    const store = sandbox.store.forAccount(ACCOUNTS.paid)!;
    const apiKey = store.collection('api_keys').get('key_paid_default')!;
    // No credit read before the job: the ledger is first built while the job is already stored.
    const before = store.account.credits.balance;
    createJob(sandbox, store, apiKey, {
      type: 'crawl',
      model: 'web-crawler-1',
      operationId: 'crawlSite',
      input: { url: 'https://example.com/', max_pages: 5, max_depth: 1 },
      units: 5,
      creditsHold: 5,
    } as never);
    expect(availableCredits(store)).toBe(before - 5);
  });
});
