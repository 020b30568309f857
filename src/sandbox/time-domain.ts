/**
 * What a request reads time from (contract §4.1): a clock and the rate limiter whose windows follow
 * it, plus the handler services bound to that clock. The sandbox clock is one domain (anonymous
 * callers and every account that shares it); each account with its own clock is another. Requests
 * capture their caller's domain once, right after the caller is identified
 * (src/http/identify-caller.ts), and read nothing else.
 *
 * The rate limiter belongs to the domain, not to the world: its windows are aligned on the clock,
 * and one limiter fed instants of different clocks would see a new window on every switch and drop
 * every other tenant's counters.
 */
import { isoTimestamp, type VirtualClock } from '../clock/virtual-clock.js';
import { settleDueJobs, settleJob, settleJobs } from '../jobs/settle.js';
import type { RateLimiter } from '../protocol/rate-limiter.js';
import type { HandlerServices } from '../operations/types.js';
import type { World } from './world.js';

export interface TimeDomain {
  readonly clock: VirtualClock;
  readonly rateLimiter: RateLimiter;
  /** What handlers of requests in this domain get as `sandbox`: the world's services on this clock. */
  readonly services: HandlerServices;
}

/** The world's handler services, with every time read (now, timestamps, settling) on `clock`. */
export function servicesOnClock(world: World, clock: VirtualClock, rateLimiter: RateLimiter): HandlerServices {
  const at = () => ({ now: clock.now() });
  return {
    clock,
    rateLimiter,
    ids: world.ids,
    options: world.options,
    jobSettings: world.jobSettings,
    jobOutcomeRules: world.jobOutcomeRules,
    now: () => clock.now(),
    timestamp: () => isoTimestamp(clock.now()),
    settleJob: (account, job) => settleJob(account, job, at()),
    settleDueJobs: (account) => settleDueJobs(account, at()),
    settleJobs: (account) => settleJobs(account, at()),
    // Stamped on this domain's clock, the one the request captured, whatever happens to the account meanwhile.
    createApiKey: (account, input) => world.createApiKey(account, input, clock),
  };
}
