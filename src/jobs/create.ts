/**
 * Creating a job: id, outcome (asked of the rules), timeline and the stored record in state
 * `queued`. Resource handlers create jobs through their request's `jobs` factory (bound per request
 * in src/http/router.ts `dispatch`), after validating their input and checking credits: the factory
 * puts the request's own rule (its scenarios' job effects) before the world's.
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import { Prng } from '../random.js';
import type { IdSource } from '../random.js';
import type { ApiKeyRecord, CrawlInput, JobRecord, JobType } from '../store/records.js';
import { recordBytes } from '../store/record-meter.js';
import type { AccountStore } from '../store/store.js';
import { isTerminal } from './derive.js';
import { decideJobOutcome, JOB_ERROR_CODE_MAX_LENGTH, JOB_ERROR_MAX_LENGTH, type JobOutcomeRule } from './outcome.js';
import { trackNewJob } from './settle.js';
import type { JobSettings } from './settings.js';
import { buildTimeline } from './timeline.js';

/** What creating a job reads of its world: handlers pass their `HandlerServices`, which extend it. */
export interface JobServices {
  now(): number;
  /** The ids of what the account's requests make: its own streams (src/sandbox/record-ids.ts). */
  idsOf(account: AccountStore): IdSource;
  /** The sandbox's seed: a job's provider request id derives from it. */
  readonly seed: string;
  readonly jobSettings: JobSettings;
  readonly jobOutcomeRules: readonly JobOutcomeRule[];
}

export interface NewJob {
  /** The request member a refusal by the record budget names (the crawl's `url`); default `input`. */
  param?: string;
  type: JobType;
  model: string;
  operationId: string;
  input: CrawlInput;
  /** Units of work the job will do (for a crawl: pages); sets its duration and cost. */
  units: number;
  /** Credits held while the job is unfinished: at least what it will cost. */
  creditsHold: number;
}

/**
 * What a job record weighs beside its input and its error, at most: ids, timestamps, its timeline
 * less the error message and code. Checked by a test.
 */
export const JOB_MEMBERS_BYTES = 2048;

/**
 * What a failed job's error message and code weigh at most, once: each character escaped in JSON
 * takes at most 6 bytes (`\u0001`), plus the quotes. A failed job holds them twice, in its timeline
 * and, once ended, in `error` and `error_code`.
 */
export const JOB_ERROR_BYTES = JOB_ERROR_MAX_LENGTH * 6 + 2 + JOB_ERROR_CODE_MAX_LENGTH * 6 + 2;

/**
 * What a job record grows by as it is settled, at most: `started_at` and `completed_at` (null to a
 * timestamp), `provider_request_id` (null to a UUID), a longer status, `progress` and `credits_used`
 * of a few more digits; a failed job's error and code come on top. Checked by a test.
 */
export const JOB_SETTLED_GROWTH_BYTES = 160;

/**
 * What a job with this input is admitted by, before anything is decided: whatever its outcome, its
 * counted size (`jobCountedBytes`) is at most this. A crawl the budget refuses then asks no rule (a
 * scenario's `times` stays), draws no id and makes nothing (docs/api.md "Record budget").
 */
export function jobAdmissionBytes(input: CrawlInput): number {
  return recordBytes(input) + JOB_MEMBERS_BYTES + 2 * JOB_ERROR_BYTES;
}

/**
 * What a job is counted as: what it will weigh once ended, since settling fills its timestamps and
 * ids in place (without `Collection.update`), and a failed one shows its timeline's error and code
 * in `error` and `error_code` too. A queued job and one loaded from a snapshot are counted alike.
 */
export function jobCountedBytes(job: JobRecord): number {
  if (isTerminal(job.status)) return recordBytes(job);
  return recordBytes(job) + JOB_SETTLED_GROWTH_BYTES + recordBytes(job.timeline.error) + recordBytes(job.timeline.error_code);
}

/** Creates a job of one request: what a handler's `jobs` is. */
export type JobFactory = (store: AccountStore, apiKey: ApiKeyRecord, job: NewJob) => JobRecord;

/**
 * The job factory of one request: `requestRule` (the scenarios acting on the request, asked when the
 * job is created, so `times` counts jobs) decides first, then the world's rules.
 */
export function jobFactory(sandbox: JobServices, requestRule?: JobOutcomeRule): JobFactory {
  return (store, apiKey, job) => createJob(sandbox, store, apiKey, job, requestRule);
}

export function createJob(
  sandbox: JobServices,
  store: AccountStore,
  apiKey: ApiKeyRecord,
  job: NewJob,
  requestRule?: JobOutcomeRule,
): JobRecord {
  // Before the id is drawn and the rules are asked (a scenario's `times` counts jobs), at the most
  // any outcome can make it weigh: a refused job leaves nothing behind, and an admitted one always fits.
  store.admit(job.param ?? 'input', [jobAdmissionBytes(job.input)]);
  const now = sandbox.now();
  const id = sandbox.idsOf(store).next('job');
  const settings = sandbox.jobSettings[job.type];
  const outcome = decideJobOutcome(
    {
      jobId: id,
      type: job.type,
      operationId: job.operationId,
      accountId: store.id,
      apiKeyId: apiKey.id,
      input: job.input,
      now,
    },
    requestRule ? [requestRule, ...sandbox.jobOutcomeRules] : sandbox.jobOutcomeRules,
  );
  const timeline = buildTimeline({
    now,
    settings,
    units: job.units,
    outcome,
    provider_request_id: providerRequestId(sandbox.seed, id),
  });
  const record: JobRecord = {
    id,
    object: 'job',
    type: job.type,
    status: 'queued',
    model: job.model,
    progress: 0,
    input: job.input,
    error: null,
    error_code: null,
    credits_used: 0,
    provider_request_id: null,
    created_at: isoTimestamp(now),
    started_at: null,
    completed_at: null,
    timeline,
    credits_cost: job.units * settings.credits_per_page,
    credits_hold: job.creditsHold,
    units: job.units,
  };
  // Admitted above at no less than this: counted, not asked again, now that the rules have counted it.
  store.write('jobs').insert(record, null, jobCountedBytes(record));
  trackNewJob(store, record);
  return record;
}

/** The upstream provider's request id: a UUID seeded by the sandbox seed and the job id. */
function providerRequestId(seed: string, jobId: string): string {
  const prng = new Prng(`provider:${seed}:${jobId}`);
  const hex = Array.from({ length: 32 }, () => (prng.nextUint32() % 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[prng.nextUint32() % 4]!;
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
