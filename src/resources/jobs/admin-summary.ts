/**
 * A job as the admin account state lists it (README "Jobs in the admin state"): the Job's fields
 * with its result summarized, the path that reads the whole job, and the internal bookkeeping.
 * Its size does not depend on how many pages the job's result holds (inlined, a crawl's pages
 * would make an account's admin read grow with every page crawled), and building it renders nothing.
 */
import { jobKind } from './kinds.js';
import type { JobRecord } from '../../store/records.js';
import { getJob } from './operations.js';
import { JOB_FIELDS } from './schemas.js';

/** Contract §2 fixes the API under `/v1`; the rest of the path is the operation's own. */
const API_PREFIX = '/v1';

/** The Job's fields but `result`, its summary (null until completed), the path that reads it, and the bookkeeping. */
export type JobSummary = Pick<JobRecord, Exclude<(typeof JOB_FIELDS)[number], 'result'> | 'timeline' | 'credits_cost' | 'credits_hold'> & {
  result_summary: Record<string, unknown> | null;
  url: string;
};

export function jobSummary(job: JobRecord): JobSummary {
  const summary: Record<string, unknown> = {};
  for (const field of JOB_FIELDS) if (field !== 'result') summary[field] = job[field];
  summary.result_summary = job.status === 'completed' ? jobKind(job.type).resultSummary(job) : null;
  summary.url = `${API_PREFIX}${getJob.path.replace('{id}', job.id)}`;
  summary.timeline = job.timeline;
  summary.credits_cost = job.credits_cost;
  summary.credits_hold = job.credits_hold;
  return summary as JobSummary;
}
