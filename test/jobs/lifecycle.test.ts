import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { isoTimestamp } from '../../src/clock/virtual-clock.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { advance, createCrawl, expectNoSuchJob, pollJob } from '../support/jobs.js';

const T0 = Date.parse(FROZEN_AT);
const iso = (seconds: number) => isoTimestamp(T0 + seconds * 1000);

describe('GET /v1/jobs/{id} on the virtual clock (spec §4.4, §3)', () => {
  it('§3: steps a crawl through queued -> processing -> completed as the test advances the clock', async () => {
    const c = client(makeApp());
    // 8 pages at the defaults: 1 s queued, 0.25 s per page of processing, so it ends at 3 s.
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });

    expect(await pollJob(c, KEYS.free, created.id)).toEqual(created);

    await advance(c, 1);
    const started = await pollJob(c, KEYS.free, created.id);
    expect(started).toMatchObject({
      status: 'processing',
      progress: 0,
      started_at: iso(1),
      completed_at: null,
      result: null,
      credits_used: 0,
    });
    expect(started.provider_request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    await advance(c, 1);
    expect(await pollJob(c, KEYS.free, created.id)).toMatchObject({ status: 'processing', progress: 50, result: null });

    await advance(c, 0.999);
    expect(await pollJob(c, KEYS.free, created.id)).toMatchObject({ status: 'processing', progress: 99, completed_at: null });

    await advance(c, 0.001);
    const done = await pollJob(c, KEYS.free, created.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress: 100,
      started_at: iso(1),
      completed_at: iso(3),
      credits_used: 8,
      error: null,
      error_code: null,
      provider_request_id: started.provider_request_id,
    });
    expect(done.result.pages_count).toBe(8);
    expect(done.result.pages).toHaveLength(8);
    expect(done.id).toBe(created.id);
    expect(done.created_at).toBe(created.created_at);
    expect(done.input).toEqual(created.input);
  });

  it('§3: a single large jump lands on the final state at once, with the timestamps of the timeline', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 4 });
    await advance(c, 86_400 * 30);
    expect(await pollJob(c, KEYS.free, created.id)).toMatchObject({
      status: 'completed',
      started_at: iso(1),
      completed_at: iso(2),
      progress: 100,
    });
  });

  it('§3: a job stays completed when the clock is later set back before its end', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 4 });
    await advance(c, 10);
    const done = await pollJob(c, KEYS.free, created.id);
    await c.post('/__admin/clock').send({ now: FROZEN_AT });
    expect(await pollJob(c, KEYS.free, created.id)).toEqual(done);
  });

  it('§3: an unfinished job follows the clock when it is set back', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });
    await advance(c, 2);
    expect((await pollJob(c, KEYS.free, created.id)).status).toBe('processing');
    await c.post('/__admin/clock').send({ now: FROZEN_AT });
    expect(await pollJob(c, KEYS.free, created.id)).toEqual(created);
  });

  it('§3: with the running clock a crawl of a few pages completes within a few real seconds, with no timer in the server', async () => {
    let real = T0;
    const app = createApp({ clock: 'running', realTime: () => real });
    const c = client(app);
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 8 });
    real += 1500;
    expect((await pollJob(c, KEYS.free, created.id)).status).toBe('processing');
    real += 2000;
    expect((await pollJob(c, KEYS.free, created.id)).status).toBe('completed');
  });

  it('§4.4: an unknown job id answers 404 resource_missing', async () => {
    await expectNoSuchJob(client(makeApp()), KEYS.free, 'job_doesnotexist');
  });

  it('§1: a raw unprefixed id answers 404 resource_missing', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    const raw = created.id.replace(/^job_/, '');
    expectError(await c.get(`/v1/jobs/${raw}`).set(bearer(KEYS.free)), 'resource_missing', {
      param: 'id',
      message: `No such object: '${raw}'.`,
    });
  });

  it("§4.4: another account's job answers 404 resource_missing, in both directions", async () => {
    const c = client(makeApp());
    const free = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    const paid = await createCrawl(c, KEYS.paid, { url: 'https://example.com/' });
    await expectNoSuchJob(c, KEYS.paid, free.id);
    await expectNoSuchJob(c, KEYS.free, paid.id);
    expect((await pollJob(c, KEYS.free, free.id)).id).toBe(free.id);
    expect((await pollJob(c, KEYS.paid, paid.id)).id).toBe(paid.id);
  });

  it('§4.4: a job is readable with any key of its account, read-only included', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    expect((await pollJob(c, KEYS.freeReadOnly, created.id)).id).toBe(created.id);
  });

  it('§5: reading a job without a key answers 401', async () => {
    expectError(await client(makeApp()).get('/v1/jobs/job_abc'), 'authentication_required', { message: MESSAGES.authMissing });
  });

  it('§4.4: an unknown query parameter answers 400 parameter_unknown', async () => {
    const res = await client(makeApp()).get('/v1/jobs/job_abc?expand=result').set(bearer(KEYS.free));
    expectError(res, 'parameter_unknown', { param: 'expand', message: MESSAGES.unknownParameter('expand') });
  });

  it('contract §3.1: reset forgets every job', async () => {
    const c = client(makeApp());
    const created = await createCrawl(c, KEYS.free, { url: 'https://example.com/' });
    await c.post('/__admin/reset');
    await expectNoSuchJob(c, KEYS.free, created.id);
  });
});
