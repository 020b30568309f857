/**
 * Brings an account's stored jobs up to the clock and charges credits for those that completed.
 *
 * A job's state is derived from its timeline, so nothing happens at the instant a job completes;
 * instead every place that shows jobs or credits (the job read, the crawl's credit check, the admin
 * account views) settles first. Settling is idempotent: a job is charged in the one settle that
 * first sees it ended, and an ended job is never touched again (so setting the clock back does not
 * un-finish a job that has been seen finished, nor charge it twice).
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import type { JobRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { deriveJobState, isTerminal } from './derive.js';
import { jobKind } from './kinds.js';

export interface SettleContext {
  /** Virtual ms. */
  now: number;
  seed: string;
}

export function settleJobs(store: AccountStore, { now, seed }: SettleContext): void {
  for (const job of store.collection('jobs').filter((record) => !isTerminal(record.status))) {
    const state = deriveJobState(job.timeline, now);
    // Computed before anything changes, so a failure to build it leaves the job and credits untouched.
    const result = state.status === 'completed' ? jobKind(job.type).result(job, seed) : null;
    job.status = state.status;
    job.progress = state.progress;
    job.started_at = state.started_at === null ? null : isoTimestamp(state.started_at);
    job.completed_at = state.completed_at === null ? null : isoTimestamp(state.completed_at);
    job.provider_request_id = state.started_at === null ? null : job.timeline.provider_request_id;
    if (state.status === 'failed') {
      job.error = job.timeline.error;
      job.error_code = job.timeline.error_code;
    }
    if (result) complete(store, job, result);
  }
}

/** The one place credits are charged: once per job, when it is first seen completed. */
function complete(store: AccountStore, job: JobRecord, result: Record<string, unknown>): void {
  job.result = result;
  job.credits_used = job.credits_cost;
  store.account.credits.balance -= job.credits_cost;
  store.account.credits.used += job.credits_cost;
}

/**
 * Credits a new job may use: the balance less what unfinished jobs hold for themselves. Call after
 * `settleJobs`, so jobs that have ended no longer hold anything.
 */
export function availableCredits(store: AccountStore): number {
  let held = 0;
  for (const job of store.collection('jobs').filter((record) => !isTerminal(record.status))) held += job.credits_hold;
  return store.account.credits.balance - held;
}
