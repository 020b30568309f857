/**
 * Brings jobs up to the clock and charges credits for those that completed.
 *
 * A job's state is derived from its timeline, so nothing happens at the instant a job completes;
 * instead every place that shows jobs or credits settles first: a job read settles that one job, a
 * crawl's credit check settles the jobs that are due, an admin account view settles them all.
 * Settling is idempotent: a job is charged in the one settle that first sees it ended, and an ended
 * job is never touched again (so setting the clock back does not un-finish a job that has been seen
 * finished, nor charge it twice).
 *
 * Each account keeps one ledger of its unfinished jobs, ordered by when they end, and the credits
 * they hold (src/jobs/ledger.ts; the webhook hub reads the same ledger for the jobs it announces).
 * Settling a job is O(log n): its cost was fixed at creation and its result is built only when the
 * job is read (rendering pages here once made one request settle for seconds). Polling one job
 * costs O(log n) and a credit check O(due · log n), however many jobs are live.
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import type { JobRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { deriveJobState, isTerminal } from './derive.js';
import { jobLedger } from './ledger.js';

export interface SettleContext {
  /** Virtual ms. */
  now: number;
}

/** Registers a newly created job (called by createJob right after the insert). */
export function trackNewJob(store: AccountStore, job: JobRecord): void {
  // A ledger built from the collection may already hold the job just inserted: counted once.
  jobLedger(store).track(job);
}

/** Brings one job up to the clock; charges it if it is seen completed for the first time. */
export function settleJob(store: AccountStore, job: JobRecord, { now }: SettleContext): void {
  if (isTerminal(job.status)) return;
  // Built (from the collection) before the job changes: built after, it would miss this job and
  // free its hold a second time.
  const ledger = jobLedger(store);
  const state = deriveJobState(job.timeline, now);
  job.status = state.status;
  job.progress = state.progress;
  job.started_at = state.started_at === null ? null : isoTimestamp(state.started_at);
  job.completed_at = state.completed_at === null ? null : isoTimestamp(state.completed_at);
  job.provider_request_id = state.started_at === null ? null : job.timeline.provider_request_id;
  if (state.status === 'failed') {
    job.error = job.timeline.error;
    job.error_code = job.timeline.error_code;
  }
  if (isTerminal(state.status)) ledger.ended(job);
  if (state.status === 'completed') charge(store, job);
}

/** Settles the jobs that have ended by now: what credit checks need. */
export function settleDueJobs(store: AccountStore, context: SettleContext): void {
  for (const job of jobLedger(store).unfinishedBy(context.now)) settleJob(store, job, context);
}

/** Settles every unfinished job (their progress too): for views of the whole account. */
export function settleJobs(store: AccountStore, context: SettleContext): void {
  for (const job of jobLedger(store).unfinished()) settleJob(store, job, context);
}

/** The one place credits are charged: once per job, when it is first seen completed. */
function charge(store: AccountStore, job: JobRecord): void {
  job.credits_used = job.credits_cost;
  store.account.credits.balance -= job.credits_cost;
  store.account.credits.used += job.credits_cost;
}

/**
 * Credits a new job may use: the balance less what unfinished jobs hold for themselves. Call after
 * `settleDueJobs`, so jobs that have ended no longer hold anything.
 */
export function availableCredits(store: AccountStore): number {
  return store.account.credits.balance - jobLedger(store).held;
}
