/**
 * The seam for scenarios: how a job ends is decided once, when it is created, by asking the
 * sandbox's outcome rules. With no rule that has an opinion the job completes at normal speed.
 *
 * A rule sees who created the job and with what input, and may answer a partial decision. Every
 * rule is asked, in order; each part of the outcome is taken from the first rule that sets it, so
 * a rule that only slows jobs down combines with one that makes them fail. A rule that keeps a
 * count (`times`) can count a job whenever it answers.
 */
import type { CrawlInput, JobOutcomeStatus, JobType } from '../store/records.js';

export interface JobOutcomeContext {
  jobId: string;
  type: JobType;
  /** The operation that created the job, e.g. `crawlSite`. */
  operationId: string;
  accountId: string;
  apiKeyId: string;
  input: Readonly<CrawlInput>;
  /** Virtual ms at creation. */
  now: number;
}

export interface JobOutcomeDecision {
  /** How the job ends. */
  outcome?: JobOutcomeStatus;
  /** Message of a failed job (ignored for other outcomes). */
  error?: string;
  /** Code of a failed job (ignored for other outcomes). */
  error_code?: string;
  /** Progress (0..100) at which a failed or cancelled job stops; 0 ends it before processing starts. */
  at_progress?: number;
  /** Multiplies the time spent queued and processing; above 0. */
  slow_factor?: number;
}

export type JobOutcomeRule = (context: Readonly<JobOutcomeContext>) => JobOutcomeDecision | undefined;

export interface JobOutcome {
  outcome: JobOutcomeStatus;
  error: string | null;
  error_code: string | null;
  /** 100 for completed jobs. */
  at_progress: number;
  slow_factor: number;
}

/** What a failed job reports when its rule gives no message or code. */
export const DEFAULT_FAILURE = {
  error_code: 'crawl_failed',
  error: 'The crawl failed before it could finish. No credits were charged.',
} as const;

/** The longest error message a rule may give a failed job: what a job is admitted by counts on it (src/jobs/create.ts). */
export const JOB_ERROR_MAX_LENGTH = 1000;

/** The longest error code a rule may give a failed job. */
export const JOB_ERROR_CODE_MAX_LENGTH = 64;

/** Where a failed or cancelled job stops when its rule does not say. */
export const DEFAULT_STOP_PROGRESS = 50;

export function decideJobOutcome(context: JobOutcomeContext, rules: readonly JobOutcomeRule[]): JobOutcome {
  const merged: JobOutcomeDecision = {};
  for (const rule of rules) {
    const decision = rule(context);
    if (!decision) continue;
    for (const key of Object.keys(decision) as (keyof JobOutcomeDecision)[]) {
      if (merged[key] === undefined && decision[key] !== undefined) (merged as Record<string, unknown>)[key] = decision[key];
    }
  }
  return normalize(merged);
}

function normalize(decision: JobOutcomeDecision): JobOutcome {
  const outcome = decision.outcome ?? 'completed';
  const slow = decision.slow_factor ?? 1;
  // Rules are code (scenarios validate their own params); a bad value is a bug worth a loud 500.
  if (!(Number.isFinite(slow) && slow > 0)) throw new RangeError(`job outcome slow_factor must be a number above 0, got ${slow}`);
  const stop = decision.at_progress ?? DEFAULT_STOP_PROGRESS;
  if (!(Number.isInteger(stop) && stop >= 0 && stop < 100)) {
    throw new RangeError(`job outcome at_progress must be an integer from 0 to 99, got ${stop}`);
  }
  if ((decision.error?.length ?? 0) > JOB_ERROR_MAX_LENGTH || (decision.error_code?.length ?? 0) > JOB_ERROR_CODE_MAX_LENGTH) {
    throw new RangeError(`job outcome error must be at most ${JOB_ERROR_MAX_LENGTH} characters, its code ${JOB_ERROR_CODE_MAX_LENGTH}`);
  }
  if (outcome === 'completed') return { outcome, error: null, error_code: null, at_progress: 100, slow_factor: slow };
  if (outcome === 'cancelled') return { outcome, error: null, error_code: null, at_progress: stop, slow_factor: slow };
  return {
    outcome,
    error: decision.error ?? DEFAULT_FAILURE.error,
    error_code: decision.error_code ?? DEFAULT_FAILURE.error_code,
    at_progress: stop,
    slow_factor: slow,
  };
}
