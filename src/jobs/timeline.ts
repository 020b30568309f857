/**
 * A job's timeline: built once at creation from the job type's settings, the amount of work and
 * the outcome the rules decided. Nothing runs later; `deriveJobState` reads it against the clock.
 */
import type { JobTimeline } from '../store/records.js';
import type { JobOutcome } from './outcome.js';
import type { JobTypeSettings } from './settings.js';

export interface TimelineInput {
  /** Virtual ms at creation. */
  now: number;
  settings: JobTypeSettings;
  /** Units of work (for a crawl: pages); processing takes `units × seconds_per_page`. */
  units: number;
  outcome: JobOutcome;
  provider_request_id: string;
}

export function buildTimeline({ now, settings, units, outcome, provider_request_id }: TimelineInput): JobTimeline {
  // At least 1 ms queued, so the creation answer is always `queued` (spec §3), even when slowed or tiny.
  const queuedMs = Math.max(1, Math.round(settings.queued_seconds * 1000 * outcome.slow_factor));
  const processingMs = Math.round(units * settings.seconds_per_page * 1000 * outcome.slow_factor);
  const startedAt = now + queuedMs;
  // A job that fails or is cancelled stops part of the way through; at progress 0 it never starts.
  const runMs = outcome.outcome === 'completed' ? processingMs : Math.round((processingMs * outcome.at_progress) / 100);
  return {
    queued_at_ms: now,
    started_at_ms: startedAt,
    processing_ms: processingMs,
    ends_at_ms: startedAt + runMs,
    outcome: outcome.outcome,
    ends_at_progress: outcome.at_progress,
    error: outcome.error,
    error_code: outcome.error_code,
    provider_request_id,
  };
}
