/**
 * What the job machinery needs to know per job type, registered by the resource module that owns
 * the type (see src/resources/index.ts), so src/jobs stays free of crawl specifics.
 */
import type { JobRecord, JobType } from '../store/records.js';

export interface JobKind {
  type: JobType;
  /**
   * The job's result once it completes: a pure function of the sandbox seed and the job's input,
   * built whenever a completed job is read and never stored (it may be large; settling must not pay for it).
   */
  result(job: JobRecord, seed: string): Record<string, unknown>;
  /** What the admin state shows of a completed job's result: O(1) in size, from the record alone. */
  resultSummary(job: JobRecord): Record<string, unknown>;
}

const kinds = new Map<JobType, JobKind>();

export function registerJobKind(kind: JobKind): void {
  kinds.set(kind.type, kind);
}

export function jobKind(type: JobType): JobKind {
  const kind = kinds.get(type);
  if (!kind) throw new Error(`no job kind registered for type '${type}'`);
  return kind;
}
