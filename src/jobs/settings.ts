/**
 * How long jobs take and what they cost, per job type: the optional `jobs` section of a fixture file
 * over these defaults. The defaults are short on purpose: with the running clock a crawl of a few
 * pages completes within a few real seconds, and with a frozen clock a test advances it at once.
 */
import type { JobType } from '../store/records.js';

export interface JobTypeSettings {
  /** Time a job spends `queued` before processing starts. Above 0, so a job is born `queued` (spec §3). */
  queued_seconds: number;
  /** Processing time per unit of work (for a crawl: per page crawled). */
  seconds_per_page: number;
  /** Credits charged per unit of work when the job completes. */
  credits_per_page: number;
}

export type JobSettings = Record<JobType, JobTypeSettings>;

/** The fixture's `jobs` section: every type and every field optional. */
export type FixtureJobSettings = { [T in JobType]?: Partial<JobTypeSettings> };

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  crawl: { queued_seconds: 1, seconds_per_page: 0.25, credits_per_page: 1 },
};

export function resolveJobSettings(fromFixture: FixtureJobSettings | undefined): JobSettings {
  const resolved = {} as JobSettings;
  for (const type of Object.keys(DEFAULT_JOB_SETTINGS) as JobType[]) {
    resolved[type] = { ...DEFAULT_JOB_SETTINGS[type], ...fromFixture?.[type] };
  }
  return resolved;
}

/** JSON schema of the fixture's `jobs` section (embedded in FIXTURE_SCHEMA). */
export const FIXTURE_JOBS_SCHEMA = {
  type: 'object',
  title: 'Jobs',
  description: 'Job durations and costs per job type; each member left out keeps its default (README "Jobs").',
  additionalProperties: false,
  properties: {
    crawl: {
      type: 'object',
      title: 'Crawl jobs',
      description: 'Crawl jobs (`POST /v1/web/crawl`).',
      additionalProperties: false,
      properties: {
        queued_seconds: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 86400,
          description: 'Seconds a job waits in `queued` (default 1).',
        },
        seconds_per_page: {
          type: 'number',
          minimum: 0,
          maximum: 3600,
          description: 'Seconds of `processing` per page crawled (default 0.25).',
        },
        credits_per_page: {
          type: 'integer',
          minimum: 0,
          maximum: 1000000,
          description: 'Credits a completed job charges per page (default 1).',
        },
      },
    },
  },
} as const;
