/** Web crawl: spec §4.3, §2.3, §3. The crawl runs as a job on the virtual clock (src/jobs). */
import { ApiError, validationFailed } from '../../errors/api-error.js';
import { MESSAGES } from '../../errors/messages.js';
import { availableCredits } from '../../jobs/settle.js';
import { defineOperation } from '../../operations/types.js';
import { isAbsoluteHttpUrl } from '../../operations/urls.js';
import type { CrawlInput } from '../../store/records.js';
import { jobView } from '../jobs/schemas.js';
import { crawlPageCount } from './crawl.js';
import { CRAWL_JOB, crawlBodySchema, crawlJobSchema } from './schemas.js';

/** Absolute http(s) with a host: a rule the body schema cannot say with a useful message. */
function checkCrawlUrl(url: string): void {
  if (!isAbsoluteHttpUrl(url)) throw validationFailed({ url: [MESSAGES.crawlUrl] });
}

export const crawlSite = defineOperation<CrawlInput>({
  operationId: 'crawlSite',
  method: 'POST',
  path: '/web/crawl',
  tag: 'Web',
  specSection: '4.3',
  summary: 'Crawl a site',
  description:
    'Crawls a site to markdown across several pages, asynchronously. Answers a Job in status `queued`; poll `GET /jobs/{id}` ' +
    'for its progress and, once `completed`, its pages. Credits are charged on completion (`max_pages` × credits per page ' +
    'must be available when the crawl is created, or it answers 402 `insufficient_credits`).',
  body: crawlBodySchema,
  success: { status: 201, description: 'The new job, queued.', schema: crawlJobSchema },
  errors: [400, 401, 402, 403, 422, 429, 500],
  // Adds a record counted against the record budget, reads no seeded collection.
  seededRecords: 'weight',
  handler({ body, store, apiKey, sandbox, jobs, events }) {
    checkCrawlUrl(body.url);
    const input: CrawlInput = { url: body.url, max_pages: body.max_pages, max_depth: body.max_depth };
    // Planned in this turn, not in slices (~1–2 ms for 100 pages): a creation that waited for turns
    // would take its job id, its credit check and a job scenario's count when its plan ended, so a
    // 1-page crawl sent after a 100-page one could come first, and more often the busier the other
    // tenants: the same requests would not give the same bytes.
    const units = crawlPageCount(sandbox.seed, input);
    const settings = sandbox.jobSettings.crawl;
    // Hold the most the crawl could cost, so completing jobs can never overdraw the balance.
    const hold = input.max_pages * settings.credits_per_page;
    sandbox.settleDueJobs(store);
    const available = availableCredits(store);
    if (available < hold) throw new ApiError('insufficient_credits', { message: MESSAGES.insufficientCredits(hold, available) });
    const job = jobs(store, apiKey, {
      ...CRAWL_JOB,
      param: 'url',
      operationId: 'crawlSite',
      input,
      units,
      creditsHold: hold,
    });
    events.watchJob(job);
    return { body: jobView(job, sandbox.seed) };
  },
});

/** How the job machinery shows a crawl: the pages, regenerated from the seed and the input at each read. */
export const webOperations = [crawlSite];
