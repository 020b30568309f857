/**
 * The rules of spec §8's rate limiting that do not depend on HTTP: whose counter a request counts
 * against (per API key; per IP for requests without a valid key), the RateLimit headers of a
 * standing, and the 429. The middleware applying them is src/http/enforce-rate-limit.ts.
 */
import { serializeItem } from 'structured-headers';
import { unixSeconds } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { ApiKeyRecord, Plan } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import type { RateLimitStanding } from './rate-limiter.js';

/**
 * Who sent the request, as far as can be told before authentication is enforced: the subject the
 * limiter counts (src/http/identify-caller.ts decides it per request).
 */
export type Caller =
  | { kind: 'api_key'; account: AccountStore; key: ApiKeyRecord }
  | { kind: 'anonymous'; ip: string; reason: 'missing' | 'malformed' | 'unknown' };

export const RATE_LIMIT_POLICY_NAME = 'default';

/** Each key's subject, built once: a fresh string per request would be hashed again on every lookup. */
const keySubjects = new WeakMap<object, string>();

/** The counter name of an API key: one definition for the limiter and for account reset/delete. */
export function apiKeySubject(keyId: string): string {
  return `key:${keyId}`;
}

export function rateLimitSubject(caller: Caller): { subject: string; tier: Plan } {
  if (caller.kind !== 'api_key') return { subject: `ip:${caller.ip}`, tier: 'free' };
  let subject = keySubjects.get(caller.key);
  if (subject === undefined) keySubjects.set(caller.key, (subject = apiKeySubject(caller.key.id)));
  return { subject, tier: caller.account.account.plan };
}

const policyHeaders = new Map<string, string>();

/** The quota never changes for a (limit, window) pair, so it is serialized once per pair. */
function policyHeader(limit: number, windowSeconds: number): string {
  const key = `${limit}/${windowSeconds}`;
  let header = policyHeaders.get(key);
  if (header === undefined) {
    header = serializeItem([
      RATE_LIMIT_POLICY_NAME,
      new Map([
        ['q', limit],
        ['w', windowSeconds],
      ]),
    ]);
    policyHeaders.set(key, header);
  }
  return header;
}

/**
 * `RateLimit: "default";r=<remaining>;t=<seconds>`, an RFC 9651 item. The policy header is
 * serialized by structured-headers (once per quota); this one changes every request, and with a
 * fixed token-safe name and two non-negative integer parameters its serialization is exactly this
 * concatenation (test/protocol/rate-limit.test.ts checks it against the library for any values).
 */
export function rateLimitItem(remaining: number, secondsUntilReset: number): string {
  return `"${RATE_LIMIT_POLICY_NAME}";r=${remaining};t=${secondsUntilReset}`;
}

/** RFC 9651 structured fields (§8), plus the legacy `X-RateLimit-*` names, set on `headers`. */
export function setRateLimitHeaders(headers: { set(name: string, value: string): void }, standing: RateLimitStanding): void {
  headers.set('RateLimit-Policy', policyHeader(standing.limit, standing.windowSeconds));
  headers.set('RateLimit', rateLimitItem(standing.remaining, standing.secondsUntilReset));
  headers.set('X-RateLimit-Limit', String(standing.limit));
  headers.set('X-RateLimit-Remaining', String(standing.remaining));
  headers.set('X-RateLimit-Reset', String(unixSeconds(standing.resetAt)));
}

/** The same headers as a record (the 429's `ApiError` carries them). */
export function rateLimitHeaders(standing: RateLimitStanding): Record<string, string> {
  const record: Record<string, string> = {};
  setRateLimitHeaders({ set: (name, value) => (record[name] = value) }, standing);
  return record;
}

/**
 * The 429 of spec §8, shared by the limiter and the `rate-limited` scenario. Retry-After is always
 * the RateLimit `t` (README "Rate limits": they are equal), so a client reading either waits as long.
 */
export function rateLimitExceeded(standing: RateLimitStanding): ApiError {
  return new ApiError('rate_limit_exceeded', {
    message: MESSAGES.rateLimited,
    headers: { ...rateLimitHeaders({ ...standing, remaining: 0 }), 'Retry-After': String(standing.secondsUntilReset) },
    extra: { plan_tier: standing.tier },
  });
}

/**
 * The 429 a `rate-limited` scenario answers: the limiter's own, headers and `plan_tier` included.
 * A scenario's `retry_after` plays the window's reset, so Retry-After, RateLimit `t` and
 * X-RateLimit-Reset all say it and a client honouring any one of them waits the same time.
 */
export function scenarioRateLimitExceeded(standing: RateLimitStanding, now: number, retryAfterSeconds: number | undefined): ApiError {
  if (retryAfterSeconds === undefined) return rateLimitExceeded(standing);
  return rateLimitExceeded({ ...standing, secondsUntilReset: retryAfterSeconds, resetAt: now + retryAfterSeconds * 1000 });
}
