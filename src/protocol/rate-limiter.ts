/**
 * Fixed-window request counting (spec §8): one counter per credential for all endpoints; windows
 * are aligned to multiples of the window length on the virtual clock, and the counter returns to
 * zero at the reset time. JavaScript runs one request's bookkeeping at a time, so counting is exact
 * under concurrent requests without locks.
 */
import type { Plan } from '../store/records.js';

export interface RateLimitQuotas {
  /** `false` when limiting is off: headers are still sent, but nothing is ever refused. */
  enforce: boolean;
  free: number;
  paid: number;
  windowSeconds: number;
}

export interface RateLimitStanding {
  tier: Plan;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Virtual ms at which the current window ends. */
  resetAt: number;
  /** Whole seconds until the reset, at least 1 (the `t` of RateLimit, and Retry-After). */
  secondsUntilReset: number;
  /** False when this request is over the limit and limiting is enforced. */
  allowed: boolean;
}

interface Counter {
  window: number;
  count: number;
}

export class RateLimiter {
  /**
   * Counters of the current window only. Windows are aligned for every subject alike, so once a
   * request is counted in a new window every older counter is dead: they are dropped then, and a
   * sandbox that meets ever new keys or client IPs keeps one window's worth of them.
   */
  private readonly counters = new Map<string, Counter>();
  private countedWindow: number | undefined;

  constructor(readonly quotas: RateLimitQuotas) {}

  /** How many subjects hold a counter (those counted in the current window). */
  get subjects(): number {
    return this.counters.size;
  }

  limitFor(tier: Plan): number {
    return this.quotas[tier];
  }

  /** Counts one request for `subject` and reports its standing after it. */
  consume(subject: string, tier: Plan, now: number): RateLimitStanding {
    return this.standing(subject, tier, now, true);
  }

  /** The standing without counting (for `GET /v1/status` after its own request was counted). */
  peek(subject: string, tier: Plan, now: number): RateLimitStanding {
    return this.standing(subject, tier, now, false);
  }

  /**
   * Takes back one request counted in the current window: a scenario that answers 429 refuses the
   * request, and refused requests are not counted (spec §8, as the limiter's own 429).
   */
  refund(subject: string, now: number): void {
    const counter = this.counters.get(subject);
    const window = Math.floor(now / (this.quotas.windowSeconds * 1000));
    if (counter && counter.window === window && counter.count > 0) counter.count -= 1;
  }

  /** Drops the counters of these subjects (an account reset or deleted: fresh counters for its keys). */
  forget(subjects: Iterable<string>): void {
    for (const subject of subjects) this.counters.delete(subject);
  }

  /**
   * Moves the counters of these subjects to another limiter (an account leaving the shared clock
   * for its own, at the same instant): the requests already counted in this window stay counted.
   */
  transfer(subjects: Iterable<string>, to: RateLimiter): void {
    for (const subject of subjects) {
      const counter = this.counters.get(subject);
      if (!counter) continue;
      this.counters.delete(subject);
      to.counters.set(subject, counter);
      to.countedWindow = this.countedWindow;
    }
  }

  private standing(subject: string, tier: Plan, now: number, count: boolean): RateLimitStanding {
    const windowMs = this.quotas.windowSeconds * 1000;
    const window = Math.floor(now / windowMs);
    const limit = this.limitFor(tier);
    if (count && window !== this.countedWindow) {
      this.counters.clear();
      this.countedWindow = window;
    }
    let counter = this.counters.get(subject);
    if (!counter || counter.window !== window) {
      counter = { window, count: 0 };
      if (count) this.counters.set(subject, counter);
    }
    let allowed = true;
    if (count) {
      if (counter.count < limit || !this.quotas.enforce) counter.count += 1;
      else allowed = false;
    }
    const resetAt = (window + 1) * windowMs;
    return {
      tier,
      limit,
      remaining: Math.max(0, limit - counter.count),
      windowSeconds: this.quotas.windowSeconds,
      resetAt,
      secondsUntilReset: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      allowed,
    };
  }
}
