/**
 * What the findings rules need to know about a finished /v1 request or an ended webhook delivery:
 * a narrow input, filled in from the world's `requestFinished` exchange and `deliveryEnded` delivery
 * (src/findings/world-module.ts), so the rules stay plain functions of these values.
 */

/**
 * One moment seen on two clocks: real epoch ms, and the account's virtual ms (the sandbox clock for
 * requests without a known key). "Elapsed" between two of them is the larger difference (contract §5).
 */
export interface Instant {
  readonly real: number;
  readonly virtual: number;
}

/** Contract §5 "Elapsed time": the larger of the real and the account's virtual time between two events. */
export function elapsedMs(from: Instant, to: Instant): number {
  return Math.max(to.real - from.real, to.virtual - from.virtual);
}

export interface RequestObservation {
  readonly requestId: string;
  /** Null for a request without a known key. */
  readonly accountId: string | null;
  readonly apiKeyId: string | null;
  /** The caller's address: the credential of a request without a known key (contract §5 "The same request"). */
  readonly callerIp: string;
  readonly method: string;
  /** Including `/v1`, without the query. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly querystring: string;
  /**
   * The body as a JSON value (undefined when none was sent; a body that is not JSON as its text).
   * A function: only the rules that compare two requests read it, so a request no rule compares costs
   * no parse.
   */
  readonly body: () => unknown;
  readonly idempotencyKey: string | undefined;
  readonly operationId: string | null;
  /** The status sent (with a fault after the operation, the status of the answer lost); null when nothing was answered. */
  readonly status: number | null;
  /** The `error.code` of an error answer. */
  readonly errorCode: string | undefined;
  /** `Retry-After` of the answer, in seconds, when it had one. */
  readonly retryAfterSeconds: number | undefined;
  /** The `Sunset` of an answer that carried `Deprecation` headers (spec §9), ISO 8601. */
  readonly deprecation: { readonly sunset: string } | undefined;
  /** The transport fault that lost the answer (contract §4.2), or null. */
  readonly fault: string | null;
  /** The client closed the connection before the answer left. */
  readonly closedEarly: boolean;
  /** For a 429: whether the caller's real quota refused it, or a scenario answered it. */
  readonly rateLimited: 'quota' | 'scenario' | undefined;
  /** For a quota 429: which window of the limiter (its reset instant); one finding per credential and window. */
  readonly rateLimitWindow: number | undefined;
  /** A `when: "after"` fault lost the answer of a write that took effect (the operation succeeded). */
  readonly tookEffect: boolean;
  /** For `GET /v1/jobs/{id}` answered 200: the job and its status in that answer. */
  readonly job: { readonly id: string; readonly status: string } | undefined;
  readonly arrived: Instant;
  readonly answered: Instant;
}

export interface DeliveryObservation {
  readonly deliveryId: string;
  readonly accountId: string;
  readonly endpointId: string;
  readonly eventType: string;
  /** How it ended: `succeeded` on a 2xx, `failed` after its last retry. */
  readonly status: 'succeeded' | 'failed';
  /** Signed with a secret that is not the endpoint's (`webhooks-badly-signed`). */
  readonly wrongSecret: boolean;
  /** The receiver's status on the last attempt (null when none came). */
  readonly lastStatusCode: number | null;
  readonly attempts: number;
  /** The account's virtual ms when it ended. */
  readonly at: number;
}
