/**
 * The rate limiting middleware of spec §8: counts every /v1 request, errors included, against the
 * caller's counter, sets the RateLimit headers and refuses with 429 once the quota is used up. The
 * counters and the 429 itself are protocol state and rules (src/protocol/rate-limit*.ts).
 */
import { rateLimitExceeded, rateLimitSubject, setRateLimitHeaders } from '../protocol/rate-limit.js';
import type { SandboxMiddleware } from './context.js';
import { requestTime } from './identify-caller.js';

export function rateLimit(): SandboxMiddleware {
  return function rateLimitMiddleware(ctx, next) {
    const caller = ctx.state.caller;
    if (!caller) throw new Error('rateLimit must run after callerIdentification');
    const { subject, tier } = rateLimitSubject(caller);
    // The caller's time domain (src/sandbox/time-domain.ts): windows follow its account's clock.
    const { rateLimiter, clock } = requestTime(ctx);
    const standing = rateLimiter.consume(subject, tier, clock.now());
    ctx.state.rateLimit = standing;
    setRateLimitHeaders(ctx.state.headers, standing);
    if (!standing.allowed) throw rateLimitExceeded(standing);
    return next();
  };
}
