/**
 * What is known per job type beyond its timeline: its result and the admin summary of it. The
 * resource that owns a type defines its kind; src/resources/jobs/kinds.ts lists them in a table the
 * compiler checks, so src/jobs stays free of crawl specifics and nothing registers at import time.
 */
import type { JobRecord, JobType } from '../store/records.js';

export interface JobKind {
  type: JobType;
  /**
   * The job's result once it completes: a pure function of the sandbox seed and the job's input,
   * built whenever a completed job is read and never stored (it may be large; settling must not pay for it).
   */
  result(job: JobRecord, seed: string): Record<string, unknown>;
  /**
   * The same result, built a small step at a time (each `yield` a point where the builder may stop
   * and let other work run): for work that must not hold the event loop, such as a job's webhook
   * event (src/webhooks/hub.ts). Left out when `result` is cheap.
   */
  resultInSteps?(job: JobRecord, seed: string): Generator<void, Record<string, unknown>, void>;
  /** What the admin state shows of a completed job's result: O(1) in size, from the record alone. */
  resultSummary(job: JobRecord): Record<string, unknown>;
}
