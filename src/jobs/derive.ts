/**
 * A job's state at an instant: a pure function of its timeline and the virtual clock. No timers and
 * no polling loop: advancing the clock by any amount gives the right state at once.
 *
 *   queued      from creation until `started_at_ms`
 *   processing  from `started_at_ms` until `ends_at_ms`; progress = share of processing time elapsed
 *   terminal    from `ends_at_ms` on: the outcome decided at creation
 *
 * Boundaries belong to the later state (at exactly `ends_at_ms` the job has ended).
 */
import type { JobStatus, JobTimeline } from '../store/records.js';

export interface DerivedJobState {
  status: JobStatus;
  /** Integer 0..100. */
  progress: number;
  /** Virtual ms, or null when the job has not started (or ended before it started). */
  started_at: number | null;
  /** Virtual ms when the job ended (completed, failed or cancelled), or null while unfinished. */
  completed_at: number | null;
}

export function isTerminal(status: JobStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Whether the job ever reaches `processing`: all but those stopped at progress 0. */
export function everStarts(timeline: JobTimeline): boolean {
  return timeline.outcome === 'completed' || timeline.ends_at_progress > 0;
}

export function deriveJobState(timeline: JobTimeline, now: number): DerivedJobState {
  if (now >= timeline.ends_at_ms) {
    return {
      status: timeline.outcome,
      progress: timeline.ends_at_progress,
      started_at: everStarts(timeline) ? timeline.started_at_ms : null,
      completed_at: timeline.ends_at_ms,
    };
  }
  if (now < timeline.started_at_ms) return { status: 'queued', progress: 0, started_at: null, completed_at: null };
  const elapsed = Math.floor((100 * (now - timeline.started_at_ms)) / timeline.processing_ms);
  // Rounding of the end instant must never show the final progress before the job has ended.
  const ceiling = Math.max(0, timeline.ends_at_progress - 1);
  return { status: 'processing', progress: Math.min(elapsed, ceiling), started_at: timeline.started_at_ms, completed_at: null };
}
