/**
 * A crawl of a generated site (site.ts): breadth first from the start URL, following links on the same
 * origin whose path lies under the start URL's path, up to `max_depth` links away and `max_pages`
 * pages. Each page records the page it was first found on (`parent_url`), which links to it, one
 * level up: the pages form a tree the result can be checked against.
 */
import type { JobKind } from '../../jobs/kinds.js';
import type { CrawlInput } from '../../store/records.js';
import { Site } from './site.js';

export interface CrawledPage {
  url: string;
  title: string;
  depth: number;
  status_code: number;
  /** The page this one was first found on; null for the start page. */
  parent_url: string | null;
  links: string[];
  markdown: string;
}

export interface CrawlResult {
  pages_count: number;
  pages: CrawledPage[];
}

interface PlannedPage {
  url: string;
  depth: number;
  parent_url: string | null;
}

/** The start URL as the crawler fetches it: no credentials, no fragment, no trailing slash below the root. */
export function normalizeStartUrl(url: string): URL {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  if (parsed.pathname.length > 1) parsed.pathname = parsed.pathname.replace(/\/+$/, '') || '/';
  return parsed;
}

function inScope(link: string, start: URL): boolean {
  const target = new URL(link);
  if (target.origin !== start.origin) return false;
  const prefix = start.pathname.endsWith('/') ? start.pathname : `${start.pathname}/`;
  return target.pathname === start.pathname || target.pathname.startsWith(prefix);
}

/** Runs steps (see `crawlInSteps`) to their end, at once. */
function finish<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Which pages the crawl visits, in order (enough to know its size, and so its cost, at creation), a page per step. */
function* planInSteps(seed: string, input: CrawlInput): Generator<void, { site: Site; planned: PlannedPage[] }, void> {
  const start = normalizeStartUrl(input.url);
  const site = new Site(seed, start.origin);
  const planned: PlannedPage[] = [];
  const queue: PlannedPage[] = [{ url: start.href, depth: 0, parent_url: null }];
  const seen = new Set([start.href]);
  for (let next = queue.shift(); next && planned.length < input.max_pages; next = queue.shift()) {
    planned.push(next);
    if (next.depth >= input.max_depth) continue;
    yield;
    for (const link of site.page(next.url, next.depth === 0).links) {
      if (seen.has(link) || !inScope(link, start)) continue;
      seen.add(link);
      queue.push({ url: link, depth: next.depth + 1, parent_url: next.url });
    }
  }
  return { site, planned };
}

/**
 * How many pages the crawl visits (what its cost is made of), planned at once: creating a crawl runs
 * it in the request's own turn (~1–2 ms for 100 pages), so an account's creations take effect in the
 * order they arrive whatever other tenants do (job ids, the credit check, a job scenario's count).
 */
export function crawlPageCount(seed: string, input: CrawlInput): number {
  return finish(planInSteps(seed, input)).planned.length;
}

/**
 * `runCrawl` a page per step (each page planned, then each rendered: a few ms each at most, where a
 * 100-page crawl takes tens of ms in all), for the webhook hub's slices.
 */
export function* crawlInSteps(seed: string, input: CrawlInput): Generator<void, CrawlResult, void> {
  const { site, planned } = yield* planInSteps(seed, input);
  const pages: CrawledPage[] = [];
  for (const { url, depth, parent_url } of planned) {
    yield;
    const { title, status_code, links, markdown } = site.render(site.page(url, depth === 0));
    pages.push({ url, title, depth, status_code, parent_url, links, markdown });
  }
  return { pages_count: pages.length, pages };
}

/** The whole crawl, pages rendered: the `result` of a completed crawl job. */
export function runCrawl(seed: string, input: CrawlInput): CrawlResult {
  return finish(crawlInSteps(seed, input));
}

/** What the jobs resource needs of a crawl job (src/resources/jobs/kinds.ts). */
export const crawlJobKind: JobKind = {
  type: 'crawl',
  result: (job, seed) => ({ ...runCrawl(seed, job.input) }),
  *resultInSteps(job, seed) {
    return { ...(yield* crawlInSteps(seed, job.input)) };
  },
  // The crawl's page count was planned at creation (it set the job's cost): the result will hold as many.
  resultSummary: (job) => ({ pages_count: job.units }),
};
