import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/errors/messages.js';
import { JOB_FIELDS } from '../../../src/resources/jobs/schemas.js';
import { CRAWL_LIMITS } from '../../../src/resources/web/schemas.js';
import { bearer, client, expectError, FROZEN_AT, KEYS, ACCOUNTS, makeApp } from '../../support/harness.js';
import { accountState, createCrawl } from '../../support/jobs.js';

describe('POST /v1/web/crawl (spec §4.3)', () => {
  it('§4.3/§2.3: answers 201 with a queued Job carrying every field of §2.3, null or 0 where not yet known', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 5, max_depth: 1 });
    expect(Object.keys(job)).toEqual(JOB_FIELDS);
    expect(JOB_FIELDS).toHaveLength(15);
    expect(job).toMatchObject({
      object: 'job',
      type: 'crawl',
      status: 'queued',
      model: 'web-crawler-1',
      progress: 0,
      input: { url: 'https://example.com/', max_pages: 5, max_depth: 1 },
      result: null,
      error: null,
      error_code: null,
      credits_used: 0,
      provider_request_id: null,
      created_at: FROZEN_AT,
      started_at: null,
      completed_at: null,
    });
    expect(job.id).toMatch(/^job_[A-Za-z0-9]+$/);
  });

  it('§4.3: fills the documented defaults for max_pages and max_depth into the job input', async () => {
    const job = await createCrawl(client(makeApp()), KEYS.free, { url: 'http://example.org/blog' });
    expect(job.input).toEqual({
      url: 'http://example.org/blog',
      max_pages: CRAWL_LIMITS.max_pages.default,
      max_depth: CRAWL_LIMITS.max_depth.default,
    });
  });

  it('§4.3: accepts the bounds of max_pages and max_depth themselves', async () => {
    const c = client(makeApp());
    await createCrawl(c, KEYS.paid, { url: 'https://example.com/', max_pages: 1, max_depth: 0 });
    await createCrawl(c, KEYS.paid, { url: 'https://example.com/', max_pages: 100, max_depth: 10 });
  });

  it('§7.2: a missing url answers 400 parameter_missing naming it', async () => {
    const c = client(makeApp());
    expectError(await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ max_pages: 3 }), 'parameter_missing', {
      param: 'url',
      message: MESSAGES.missingParameter('url'),
    });
    expectError(await c.post('/v1/web/crawl').set(bearer(KEYS.free)), 'parameter_missing', {
      param: 'url',
      message: MESSAGES.missingParameter('url'),
    });
  });

  it.each([
    ['a relative URL', '/about'],
    ['a host without a scheme', 'example.com'],
    ['an ftp URL', 'ftp://example.com/file'],
    ['a javascript URL', 'javascript:alert(1)'],
    ['an empty string', ''],
    ['a URL without a host', 'http://'],
    ['a URL with a space', 'https://exa mple.com/'],
    ['a URL after spaces', '  https://example.com/'],
  ])('§7.2: %s as url answers 422 with errors.url', async (_, url) => {
    const res = await client(makeApp()).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url });
    expectError(res, 'validation_failed', { param: 'url', errors: { url: [MESSAGES.crawlUrl] } });
  });

  it('§7.2: a url that is not a string answers 422 with errors.url', async () => {
    const res = await client(makeApp()).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 42 });
    expectError(res, 'validation_failed', { param: 'url', errors: { url: ['must be of type string'] } });
  });

  it('§7.2: max_pages and max_depth out of bounds answer 422 listing every field', async () => {
    const c = client(makeApp());
    const low = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 0, max_depth: -1 });
    expectError(low, 'validation_failed', { param: 'max_pages', errors: { max_pages: ['must be >= 1'], max_depth: ['must be >= 0'] } });
    const high = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 101, max_depth: 11 });
    expectError(high, 'validation_failed', { param: 'max_pages', errors: { max_pages: ['must be <= 100'], max_depth: ['must be <= 10'] } });
  });

  it('§7.2: non-integer max_pages and max_depth answer 422', async () => {
    const res = await client(makeApp())
      .post('/v1/web/crawl')
      .set(bearer(KEYS.free))
      .send({ url: 'https://example.com/', max_pages: 2.5, max_depth: '2' });
    expectError(res, 'validation_failed', {
      param: 'max_pages',
      errors: { max_pages: ['must be of type integer'], max_depth: ['must be of type integer'] },
    });
  });

  it('§7.2: an unknown body field answers 400 parameter_unknown', async () => {
    const res = await client(makeApp()).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', limit: 5 });
    expectError(res, 'parameter_unknown', { param: 'limit', message: MESSAGES.unknownParameter('limit') });
  });

  it('§5: answers 401 without a key and 403 for a read-only key', async () => {
    const c = client(makeApp());
    expectError(await c.post('/v1/web/crawl').send({ url: 'https://example.com/' }), 'authentication_required', {
      message: MESSAGES.authMissing,
    });
    expectError(await c.post('/v1/web/crawl').set(bearer(KEYS.freeReadOnly)).send({ url: 'https://example.com/' }), 'forbidden', {
      message: MESSAGES.readOnlyKey,
    });
  });

  it('leaves no job and spends no id when a crawl is refused', async () => {
    const app = makeApp();
    const c = client(app);
    await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'ftp://example.com/' });
    await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 0 });
    expect((await accountState(c, ACCOUNTS.free)).jobs).toEqual([]);
    const first = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    const fresh = await createCrawl(client(makeApp()), KEYS.free, { url: 'https://example.com/' });
    expect(first.id).toBe(fresh.id);
  });

  it('keeps each job in the account admin state (contract §3.2)', async () => {
    const c = client(makeApp());
    const job = await createCrawl(c, KEYS.paid, { url: 'https://example.com/' });
    const { jobs } = await accountState(c, ACCOUNTS.paid);
    expect(jobs.map((j) => j.id)).toEqual([job.id]);
    expect(jobs[0]).toMatchObject({ status: 'queued', type: 'crawl', input: job.input });
  });
});
