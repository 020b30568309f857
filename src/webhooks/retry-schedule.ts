import { MAX_INSTANT_MS } from '../clock/virtual-clock.js';

/**
 * When a failed attempt is tried again (contract §4.3): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * after the previous attempt, on the account's virtual clock; after the last one the delivery has
 * failed. Eight attempts in all, spread over about 27.6 hours, as Standard Webhooks senders do.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** Real time an attempt may take before it counts as failed ("no answer within 10 s"). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** An attempt deadline as a reader wants it: `10 s`, `1.5 s`, or `250 ms` under a second. */
export function deadlineText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

/**
 * Virtual ms of the next attempt after `attempts` failed ones made at `lastAt`; undefined when none is
 * left, or when it would fall past the clock's last instant (no clock ever reaches it, so the
 * delivery ends `failed` instead of waiting forever).
 */
export function nextAttemptAt(lastAt: number, attempts: number): number | undefined {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  if (delay === undefined) return undefined;
  const next = lastAt + delay * 1000;
  return next > MAX_INSTANT_MS ? undefined : next;
}
