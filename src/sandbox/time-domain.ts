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
import type { JobOutcomeRule } from '../jobs/outcome.js';
import type { JobSettings } from '../jobs/settings.js';
import { settleDueJobs, settleJob, settleJobs } from '../jobs/settle.js';
import type { RateLimiter } from '../protocol/rate-limiter.js';
import type { HandlerServices, NewApiKey } from '../operations/types.js';
import type { IdSource } from '../random.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';

export interface TimeDomain {
  readonly clock: VirtualClock;
  readonly rateLimiter: RateLimiter;
  /** What handlers of requests in this domain get as `sandbox`: the world's services on this clock. */
  readonly services: HandlerServices;
}

/**
 * What a domain's services read of their world besides the clock (the World gives itself): the
 * accounts' id streams, the seed, job settings and rules, and key creation stamped on a given clock.
 */
export interface DomainWorld {
  /** The streams of what an account's requests make (src/sandbox/record-ids.ts). */
  idsOf(account: AccountStore): IdSource;
  readonly options: { readonly seed: string };
  readonly jobSettings: JobSettings;
  readonly jobOutcomeRules: JobOutcomeRule[];
  createApiKey(account: AccountStore, input: NewApiKey, clock: VirtualClock): { key: ApiKeyRecord; token: string };
}

/**
 * The one factory of handler services: the world's, with every time read (now, timestamps,
 * settling) on `clock`. The sandbox clock's domain and every own clock's are made by it.
 */
export function timeDomain(world: DomainWorld, clock: VirtualClock, rateLimiter: RateLimiter): TimeDomain {
  const at = () => ({ now: clock.now() });
  const services: HandlerServices = {
    clock,
    rateLimiter,
    idsOf: (account) => world.idsOf(account),
    seed: world.options.seed,
    jobSettings: world.jobSettings,
    jobOutcomeRules: world.jobOutcomeRules,
    now: () => clock.now(),
    timestamp: () => isoTimestamp(clock.now()),
    settleJob: (account, job) => settleJob(account, job, at()),
    settleDueJobs: (account) => settleDueJobs(account, at()),
    settleJobs: (account) => settleJobs(account, at()),
    // Stamped on this domain's clock, the one the request captured, whatever happens to the account meanwhile.
    createApiKey: (account, input = {}) => world.createApiKey(account, input, clock),
  };
  return { clock, rateLimiter, services };
}
