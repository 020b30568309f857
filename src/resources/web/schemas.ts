/** Crawl input and result (spec §4.3, §2.3): bounds and defaults are ours (README "Jobs"). */
import type { JsonSchema } from '../../operations/types.js';
import { jobSchemaFor } from '../jobs/schemas.js';

export const CRAWL_JOB = { type: 'crawl', model: 'web-crawler-1' } as const;

export const CRAWL_LIMITS = {
  max_pages: { default: 10, minimum: 1, maximum: 100 },
  max_depth: { default: 2, minimum: 0, maximum: 10 },
  url: { maxLength: 2048 },
} as const;

/** The body of `POST /web/crawl`; ajv fills the defaults, so the stored `input` has all three. */
export const crawlBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      maxLength: CRAWL_LIMITS.url.maxLength,
      description: 'Absolute http or https URL of the first page. The crawl follows links on the same origin under its path.',
      example: 'https://example.com/',
    },
    max_pages: {
      type: 'integer',
      ...CRAWL_LIMITS.max_pages,
      description: `Most pages to crawl, ${CRAWL_LIMITS.max_pages.minimum} to ${CRAWL_LIMITS.max_pages.maximum}.`,
    },
    max_depth: {
      type: 'integer',
      ...CRAWL_LIMITS.max_depth,
      description: `Most links to follow away from the first page, ${CRAWL_LIMITS.max_depth.minimum} to ${CRAWL_LIMITS.max_depth.maximum} (0 crawls the first page only).`,
    },
  },
};

/** The input as stored on the job: the body with its defaults. */
export const crawlInputSchema: JsonSchema = {
  title: 'CrawlInput',
  type: 'object',
  additionalProperties: false,
  required: ['url', 'max_pages', 'max_depth'],
  properties: crawlBodySchema.properties,
};

export const crawledPageSchema: JsonSchema = {
  title: 'CrawledPage',
  type: 'object',
  additionalProperties: false,
  required: ['url', 'title', 'depth', 'status_code', 'parent_url', 'links', 'markdown'],
  properties: {
    url: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    depth: { type: 'integer', minimum: 0, description: 'Links followed from the first page to reach this one.' },
    status_code: { type: 'integer', minimum: 100, maximum: 599 },
    parent_url: { type: ['string', 'null'], description: 'The page this one was first found on; null for the first page.' },
    links: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Every link on the page, followed or not.' },
    markdown: { type: 'string' },
  },
};

export const crawlResultSchema: JsonSchema = {
  title: 'CrawlResult',
  type: 'object',
  additionalProperties: false,
  required: ['pages_count', 'pages'],
  properties: {
    pages_count: { type: 'integer', minimum: 1 },
    pages: { type: 'array', minItems: 1, items: crawledPageSchema },
  },
};

/**
 * The Job both `crawlSite` and `getJob` answer. Named `Job` in the OpenAPI document, so generated
 * clients get one type for both; a second job kind would make `Job` a union of the kinds (the
 * document builder refuses two different schemas under one name).
 */
export const crawlJobSchema: JsonSchema = {
  title: 'Job',
  ...jobSchemaFor({ ...CRAWL_JOB, input: crawlInputSchema, result: crawlResultSchema }),
};
