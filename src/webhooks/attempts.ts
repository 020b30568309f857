/**
 * Attempting a delivery (contract §4.3): signed with its endpoint's secret (or, under the
 * `wrong_secret` twist, one that is not), sent over HTTP within the attempt deadline, and its
 * outcome written into the delivery with its next retry, if any. The attempts of one hub share its
 * keep-alive pools and its abort signal, so a reset or a close ends them all. An attempt is sent
 * once the hub gave it a slot (src/webhooks/attempt-slots.ts), so its deadline, which starts here,
 * never includes the wait for one.
 */
import { setMaxListeners } from 'node:events';
import { isoTimestamp } from '../clock/virtual-clock.js';
import { MAX_WEBHOOK_CONCURRENCY } from '../config/options.js';
import type { Delivery } from './account-queue.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signatureHeaders, wrongSecret } from './signing.js';
import { Connections, sendAttempt, type AttemptOutcome } from './transport.js';

export interface AttemptSettings {
  seed: string;
  realTime: () => number;
  /** Real ms an attempt may take. */
  timeoutMs: number;
  /** Bytes of a receiver's answer read (src/webhooks/transport.ts). */
  responseLimit: number;
}

export class Attempts {
  private readonly abort = new AbortController();
  private readonly connections = new Connections();

  constructor(private readonly settings: AttemptSettings) {
    // Each attempt in flight listens to the one signal; the slots (at most MAX_WEBHOOK_CONCURRENCY)
    // bound them, so Node's warning at 10 listeners would only be noise on stderr.
    setMaxListeners(MAX_WEBHOOK_CONCURRENCY + 1, this.abort.signal);
  }

  send(delivery: Delivery): Promise<AttemptOutcome> {
    const { seed, realTime, timeoutMs, responseLimit } = this.settings;
    const { endpoint, event, payload } = delivery;
    const secret = delivery.wrongSecret ? wrongSecret(seed, endpoint.id) : endpoint.secret;
    // Encoded once per event (src/webhooks/delivery-log.ts): the same bytes are signed and sent, by
    // every attempt of every delivery of the event, without a copy.
    const body = payload.body;
    const headers = signatureHeaders(secret, event.id, new Date(realTime()), body);
    return sendAttempt({
      url: endpoint.url,
      payload: body,
      headers,
      timeoutMs,
      responseLimit,
      abort: this.abort.signal,
      realTime,
      connections: this.connections,
    });
  }

  /** Attempts in flight end at once; no socket outlives the hub. */
  close(): void {
    this.abort.abort();
    this.connections.close();
  }
}

/**
 * Writes the outcome of the attempt made at virtual `at` into the delivery: succeeded, or failed
 * with its next attempt's instant (returned), or failed for good once the retries are spent.
 */
export function recordAttempt(delivery: Delivery, at: number, outcome: AttemptOutcome): number | undefined {
  delivery.attempts.push({
    at: isoTimestamp(at),
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: outcome.durationMs,
  });
  if (outcome.error === null) {
    delivery.status = 'succeeded';
    delivery.nextAt = undefined;
    return undefined;
  }
  // Its endpoint was deleted during the attempt: no retry.
  if (delivery.status !== 'pending') return undefined;
  const next = nextAttemptAt(at, delivery.attempts.length);
  delivery.nextAt = next;
  if (next === undefined) delivery.status = 'failed';
  return next;
}
