import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCrawl, type CrawlResult } from '../../../src/resources/web/crawl.js';
import type { CrawlInput } from '../../../src/store/records.js';
import { client, KEYS, makeApp } from '../../support/harness.js';
import { advance, createCrawl, pagesOf, pollJob } from '../../support/jobs.js';

async function completedCrawl(options: { seed?: number | string }, token: string, body: Record<string, unknown>) {
  const c = client(makeApp(options));
  const job = await createCrawl(c, token, body);
  await advance(c, 3600);
  return pollJob(c, token, job.id);
}

/** The shape every crawl result must have, whatever the site and the limits. */
function expectSiteLike(result: CrawlResult, input: CrawlInput): void {
  const { pages } = result;
  const start = new URL(input.url);
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  expect(result.pages_count).toBe(pages.length);
  expect(pages.length).toBeGreaterThanOrEqual(1);
  expect(pages.length).toBeLessThanOrEqual(input.max_pages);
  expect(byUrl.size).toBe(pages.length);
  expect(pages[0]).toMatchObject({ depth: 0, parent_url: null, status_code: 200 });
  let lastDepth = 0;
  for (const page of pages) {
    expect(new URL(page.url).origin).toBe(start.origin);
    expect(page.depth).toBeLessThanOrEqual(input.max_depth);
    // Breadth first: depths never decrease along the list.
    expect(page.depth).toBeGreaterThanOrEqual(lastDepth);
    lastDepth = page.depth;
    expect([200, 404]).toContain(page.status_code);
    expect(page.title.length).toBeGreaterThan(0);
    expect(page.links).not.toContain(page.url);
    for (const link of page.links) expect(page.markdown).toContain(`](${link})`);
    if (page.parent_url !== null) {
      const parent = byUrl.get(page.parent_url);
      expect(parent, `parent of ${page.url}`).toBeDefined();
      expect(parent!.links).toContain(page.url);
      expect(page.depth).toBe(parent!.depth + 1);
    }
    // Every crawled page a page links to lies at most one level deeper (breadth-first depth).
    for (const link of page.links) {
      const target = byUrl.get(link);
      if (target) expect(target.depth).toBeLessThanOrEqual(page.depth + 1);
    }
  }
}

describe('crawl results: a generated site (spec §2.3 result, §4.3)', () => {
  it('§4.3: two servers with the same seed produce identical jobs and pages', async () => {
    const body = { url: 'https://creator.example.com/', max_pages: 25, max_depth: 3 };
    const a = await completedCrawl({ seed: 42 }, KEYS.free, body);
    const b = await completedCrawl({ seed: 42 }, KEYS.free, body);
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('§4.3: another seed gives another site for the same URL', async () => {
    const body = { url: 'https://creator.example.com/', max_pages: 10 };
    const a = await completedCrawl({ seed: 1 }, KEYS.free, body);
    const b = await completedCrawl({ seed: 2 }, KEYS.free, body);
    expect(pagesOf(a).map((p) => p.markdown)).not.toEqual(pagesOf(b).map((p) => p.markdown));
  });

  it('§4.3: the pages depend on the seed and the input only, not on the account or on earlier requests', async () => {
    const body = { url: 'https://creator.example.com/', max_pages: 12 };
    const alone = await completedCrawl({ seed: 9 }, KEYS.free, body);
    const c = client(makeApp({ seed: 9 }));
    await createCrawl(c, KEYS.free, { url: 'https://other.example.org/' });
    const job = await createCrawl(c, KEYS.paid, body);
    await advance(c, 3600);
    expect((await pollJob(c, KEYS.paid, job.id)).result).toEqual(alone.result);
  });

  it('§4.3: pages are linked like a site: each page is linked from its parent, one level up, and the markdown carries the links', async () => {
    const job = await completedCrawl({}, KEYS.paid, { url: 'https://example.com/', max_pages: 60, max_depth: 3 });
    expectSiteLike(job.result, job.input);
    expect(new Set(pagesOf(job).map((p) => p.depth))).toEqual(new Set([0, 1, 2, 3]));
  });

  it('§4.3: honours max_depth (0 crawls the first page only) and max_pages', async () => {
    const one = await completedCrawl({}, KEYS.free, { url: 'https://example.com/', max_pages: 50, max_depth: 0 });
    expect(pagesOf(one).map((p) => p.url)).toEqual(['https://example.com/']);
    expect(pagesOf(one)[0]!.links.length).toBeGreaterThan(0);
    const capped = await completedCrawl({}, KEYS.free, { url: 'https://example.com/', max_pages: 7, max_depth: 10 });
    expect(capped.result.pages_count).toBe(7);
  });

  it('§4.3: a larger max_pages crawls the same pages first, then more', async () => {
    const small = await completedCrawl({}, KEYS.free, { url: 'https://example.com/', max_pages: 5 });
    const large = await completedCrawl({}, KEYS.free, { url: 'https://example.com/', max_pages: 20 });
    expect(pagesOf(large).slice(0, 5)).toEqual(pagesOf(small));
  });

  it('§4.3: follows only links under the start path, and drops the fragment and trailing slash of the start URL', async () => {
    const job = await completedCrawl({}, KEYS.free, { url: 'https://example.com/blog/#top', max_pages: 30, max_depth: 3 });
    const urls = pagesOf(job).map((p) => p.url);
    expect(urls[0]).toBe('https://example.com/blog');
    for (const url of urls.slice(1)) expect(url.startsWith('https://example.com/blog/')).toBe(true);
    expect(urls.length).toBeGreaterThan(1);
  });

  it('§4.3: crawls a URL with credentials, a port, a query and a malformed escape without leaking or failing', async () => {
    const job = await completedCrawl({}, KEYS.free, { url: 'https://user:secret@example.com:8443/%E0/guide?ref=ad', max_pages: 5 });
    expect(job.status).toBe('completed');
    expect(pagesOf(job)[0]!.url).toBe('https://example.com:8443/%E0/guide?ref=ad');
    expect(JSON.stringify(job.result)).not.toContain('secret');
    expectSiteLike(job.result, job.input);
  });

  it('§4.3: pages have realistic titles and markdown, and some links are broken (404)', async () => {
    const job = await completedCrawl({}, KEYS.paid, { url: 'https://example.com/', max_pages: 100, max_depth: 4 });
    const pages = pagesOf(job);
    expect(pages.some((p) => p.status_code === 404)).toBe(true);
    for (const page of pages.filter((p) => p.status_code === 200)) expect(page.markdown).toMatch(/^# .+\n\n[A-Z].+/);
    for (const page of pages.filter((p) => p.status_code === 404)) expect(page.title).toMatch(/^Page not found/);
  });

  it('§4.3: every input yields a site-like crawl (property)', () => {
    const input = fc.record({
      url: fc.webUrl({ validSchemes: ['http', 'https'], withFragments: true, withQueryParameters: true }),
      max_pages: fc.integer({ min: 1, max: 40 }),
      max_depth: fc.integer({ min: 0, max: 10 }),
    });
    fc.assert(
      fc.property(input, fc.string({ minLength: 1, maxLength: 8 }), (crawl, seed) => {
        const result = runCrawl(seed, crawl);
        expectSiteLike(result, crawl);
        expect(runCrawl(seed, crawl)).toEqual(result);
      }),
      { numRuns: 60 },
    );
  });
});
