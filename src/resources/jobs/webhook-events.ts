/**
 * The job events (contract §4.3): `job.completed`, `job.failed`, `job.cancelled`, sent when the
 * account's clock reaches a watched job's end. `data.object` is the Job as `GET /v1/jobs/{id}` shows it.
 */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord, type EventType, type SampleContext } from '../../operations/event-types.js';
import type { JobRecord, JobStatus } from '../../store/records.js';
import { CRAWL_JOB, crawlJobSchema } from '../web/schemas.js';
import { jobView, jobViewInSteps, type JobBody } from './schemas.js';

type EndStatus = 'completed' | 'failed' | 'cancelled';

/** A crawl of example.com that ended `status` at `now`: what a job event is about when the account has no such job. */
function sampleJob({ ids, now }: SampleContext, status: EndStatus): JobRecord {
  const at = isoTimestamp(now);
  const completed = status === 'completed';
  const units = 1;
  return {
    id: ids.next('job'),
    object: 'job',
    ...CRAWL_JOB,
    status,
    progress: completed ? 100 : 0,
    input: { url: 'https://example.com', max_pages: units, max_depth: 0 },
    error: status === 'failed' ? 'The crawl failed before it could finish. No credits were charged.' : null,
    error_code: status === 'failed' ? 'crawl_failed' : null,
    credits_used: completed ? units : 0,
    provider_request_id: null,
    created_at: at,
    started_at: null,
    completed_at: at,
    timeline: {
      queued_at_ms: now,
      started_at_ms: now,
      processing_ms: 0,
      ends_at_ms: now,
      outcome: status,
      ends_at_progress: completed ? 100 : 0,
      error: null,
      error_code: null,
      provider_request_id: '',
    },
    credits_cost: units,
    credits_hold: units,
    units,
  };
}

function jobEvent<T extends `job.${EndStatus}`>(type: T, status: EndStatus, description: string) {
  return defineEvent({
    type,
    description,
    object: crawlJobSchema,
    sample: (context) => {
      const job =
        newestRecord(context.account.collection('jobs').values(), (record) => record.status === status) ?? sampleJob(context, status);
      return jobView(job, context.seed);
    },
  });
}

export const jobCompleted = jobEvent(
  'job.completed',
  'completed',
  'A job completed; sent when the account clock reaches its end. `data.object` is the Job with its result.',
);
export const jobFailed = jobEvent(
  'job.failed',
  'failed',
  'A job failed; sent when the account clock reaches its end. `data.object` is the Job with `error`.',
);
export const jobCancelled = jobEvent('job.cancelled', 'cancelled', 'A job was cancelled; sent when the account clock reaches its end.');

/** The event type of a job that has ended: what its status says. */
export function jobEventType(status: JobStatus): EventType | undefined {
  if (status === 'completed') return 'job.completed';
  if (status === 'failed') return 'job.failed';
  if (status === 'cancelled') return 'job.cancelled';
  return undefined;
}

/**
 * The event of a settled job, for the webhook hub: its type, and its view built a small step at a
 * time (a completed crawl renders its pages), only when the hub asks for it, so nothing is built
 * that nobody subscribed to. Undefined while the job has not ended.
 */
export function endedJobEvent(job: JobRecord, seed: string): { type: EventType; object: () => Generator<void, JobBody, void> } | undefined {
  const type = jobEventType(job.status);
  return type && { type, object: () => jobViewInSteps(job, seed) };
}
