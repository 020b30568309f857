import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS } from '../../src/jobs/settings.js';
import { FIXTURES_DIR } from '../../src/package-dirs.js';
import { FixtureError, parseFixture } from '../../src/fixture/fixture-file.js';
import { ACCOUNTS, client, KEYS, makeApp } from '../support/harness.js';
import { accountState, advance, createCrawl, pollJob } from '../support/jobs.js';

const defaultFixture = JSON.parse(readFileSync(path.join(FIXTURES_DIR, 'default.json'), 'utf8'));

function fixtureWithJobs(jobs: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-jobs-'));
  const file = path.join(dir, 'jobs.json');
  writeFileSync(file, JSON.stringify({ ...defaultFixture, jobs }));
  return file;
}

describe('job durations and costs from the fixture', () => {
  it('uses the documented defaults when the fixture has no jobs section', () => {
    // JSON.stringify drops the undefined section: the file has no `jobs` at all.
    expect(makeApp({ fixtures: fixtureWithJobs(undefined) }).sandbox.world.jobSettings).toEqual(DEFAULT_JOB_SETTINGS);
    expect(DEFAULT_JOB_SETTINGS.crawl).toEqual({ queued_seconds: 1, seconds_per_page: 0.25, credits_per_page: 1 });
  });

  it('the default fixture spells out the defaults', () => {
    expect(makeApp().sandbox.world.jobSettings).toEqual(DEFAULT_JOB_SETTINGS);
  });

  it('§3: takes queued time, time per page and credits per page from the fixture, filling what it omits', async () => {
    const app = makeApp({ fixtures: fixtureWithJobs({ crawl: { queued_seconds: 30, credits_per_page: 5 } }) });
    expect(app.sandbox.world.jobSettings.crawl).toEqual({ queued_seconds: 30, seconds_per_page: 0.25, credits_per_page: 5 });
    const c = client(app);
    const job = await createCrawl(c, KEYS.free, { url: 'https://example.com/', max_pages: 4 });
    await advance(c, 29.9);
    expect((await pollJob(c, KEYS.free, job.id)).status).toBe('queued');
    await advance(c, 0.1 + 1);
    const done = await pollJob(c, KEYS.free, job.id);
    expect(done).toMatchObject({ status: 'completed', credits_used: 20 });
    expect((await accountState(c, ACCOUNTS.free)).credits).toEqual({ balance: 980, used: 20 });
  });

  it.each([
    [{ crawl: { queued_seconds: 0 } }, '/jobs/crawl/queued_seconds', 'must be > 0'],
    [{ crawl: { seconds_per_page: -1 } }, '/jobs/crawl/seconds_per_page', 'must be >= 0'],
    [{ crawl: { credits_per_page: 1.5 } }, '/jobs/crawl/credits_per_page', 'must be integer'],
    [{ crawl: { speed: 2 } }, '/jobs/crawl', "unknown field 'speed'"],
    [{ scrape: {} }, '/jobs', "unknown field 'scrape'"],
  ])('refuses a bad jobs section %j, naming the path', (jobs, pointer, detail) => {
    expect(() => parseFixture({ ...defaultFixture, jobs }, 'bad.json')).toThrow(new FixtureError('bad.json', pointer, detail));
  });
});
