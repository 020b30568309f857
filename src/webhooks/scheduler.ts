/**
 * When each account's webhook work runs (contract §3.3, §4.3). A delivery is due at a virtual instant
 * of its account's clock (an event's own instant, then each retry's); nothing runs on a timer per
 * delivery. An account's work runs:
 * - right after the answer of the request that caused it (`kick`);
 * - when a clock call moves a clock (`clockMoved`, `accountClockMoved`, awaited by the admin API, so
 *   everything due by the new time has happened when it answers, retries that fall due meanwhile
 *   included; what falls due later, or is caused by requests made meanwhile, is not waited for);
 * - for accounts on a running clock, from ONE real timer armed for the soonest due account of the
 *   world (src/webhooks/due-accounts.ts: O(log n) per change, a tick touches only due accounts).
 *
 * One drain per account at a time, so each account works through its own queue in due order: a
 * receiver that never answers holds up its own account's deliveries only. What a drain does is the
 * hub's (`drainDue`); this module only decides when, and answers the clock calls waiting for it.
 */
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { AccountQueue, Waiter } from './account-queue.js';
import { DueAccounts } from './due-accounts.js';

export interface SchedulerDeps {
  realTime: () => number;
  /** The clock the account follows (its own or the sandbox's). */
  clockOf(accountId: string): VirtualClock;
  /** Whether the queue is still its account's (not reset, not deleted) and the hub open. */
  isCurrent(queue: AccountQueue): boolean;
  /** Runs the account's due work until nothing is due, calling `answerWaiters` between rounds. */
  drainDue(queue: AccountQueue): Promise<void>;
  /** Counts what causes work: a clock call waits for what was caused before it. */
  stamp(): number;
  /** A clock call now waits on the account's work: its attempts waiting for a slot go first. */
  awaited(queue: AccountQueue): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export class Scheduler {
  /** Accounts with something due, by when, per clock (none while their drain runs). */
  private readonly due: DueAccounts<AccountQueue>;
  /** Accounts whose drain runs: a clock call also waits for their attempts under way. */
  private readonly working = new Set<AccountQueue>();
  private timer: NodeJS.Timeout | undefined;
  /** The real instant the timer is armed for. */
  private timerAt: number | undefined;
  private closed = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.due = new DueAccounts(deps.realTime);
  }

  /**
   * `clock` was moved (set, advanced, its mode changed): runs what is due on it by its new now, for
   * the accounts following it, and resolves once all of it has happened (contract §3.3, §4.3):
   * attempts under way included, the work caused meanwhile by other requests not waited for.
   */
  async clockMoved(clock: VirtualClock): Promise<void> {
    if (this.closed) return;
    this.due.clockMoved(clock);
    const until = clock.now();
    const queues = new Set(this.due.dueOn(clock, until));
    for (const queue of this.working) if (this.deps.clockOf(queue.id) === clock) queues.add(queue);
    const stamp = this.deps.stamp();
    await Promise.all([...queues].map((queue) => this.drain(queue, { until, stamp })));
    this.arm();
  }

  /** The account's own clock was moved (the first call gives it one): as `clockMoved`, for that account. */
  async accountClockMoved(queue: AccountQueue): Promise<void> {
    if (this.closed) return;
    const clock = this.deps.clockOf(queue.id);
    // Filed under the clock it followed until now: filed again under this one.
    this.schedule(queue);
    this.due.clockMoved(clock);
    const until = clock.now();
    const first = queue.firstDueAt();
    if (queue.working || (first !== undefined && first <= until)) await this.drain(queue, { until, stamp: this.deps.stamp() });
    this.arm();
  }

  /**
   * The soonest virtual instant something of the accounts following `clock` is due; undefined when
   * nothing is (contract §5.4, until idle). Accounts whose drain runs are out of the due index: asked too.
   */
  nextDueOn(clock: VirtualClock): number | undefined {
    let first = this.closed ? undefined : this.due.firstOn(clock);
    for (const queue of this.working) {
      const at = this.deps.clockOf(queue.id) === clock ? queue.firstDueAt() : undefined;
      if (at !== undefined && (first === undefined || at < first)) first = at;
    }
    return first;
  }

  /** Starts the account's drain without waiting for it (after a request's answer). */
  kick(queue: AccountQueue): void {
    void this.drain(queue);
  }

  /**
   * One drain per account at a time; a call during one joins it. With `wait`, resolves once the
   * work it names is done (or the drain ends: nothing left due, the account reset, the hub closed).
   */
  private drain(queue: AccountQueue, wait?: Omit<Waiter, 'resolve'>): Promise<void> {
    if (!this.deps.isCurrent(queue)) return Promise.resolve();
    const done = wait ? new Promise<void>((resolve) => queue.waiters.push({ ...wait, resolve })) : Promise.resolve();
    if (wait) this.deps.awaited(queue);
    if (!queue.working) {
      queue.working = true;
      this.working.add(queue);
      this.due.remove(queue);
      void this.work(queue);
    }
    return done;
  }

  private async work(queue: AccountQueue): Promise<void> {
    try {
      await this.deps.drainDue(queue);
    } catch {
      // An attempt never throws (transport failures are failed attempts); nothing may escape a timer.
    }
    queue.working = false;
    this.working.delete(queue);
    for (const waiter of queue.waiters.splice(0)) waiter.resolve();
    // Something raised between the drain's last look and now (a trigger in a microtask) is not left behind.
    const first = queue.firstDueAt();
    if (this.deps.isCurrent(queue) && first !== undefined && first <= this.deps.clockOf(queue.id).now()) this.kick(queue);
    else this.schedule(queue);
  }

  /** Resolves the clock calls none of whose work is left (the drain being between attempts). */
  answerWaiters(queue: AccountQueue): void {
    if (queue.waiters.length === 0) return;
    queue.waiters = queue.waiters.filter((waiter) => {
      if (queue.hasWorkFor(waiter)) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Files the account in the due index at its first due item (none: out of it); re-arms the timer. */
  schedule(queue: AccountQueue): void {
    if (queue.working) return;
    const first = this.deps.isCurrent(queue) ? queue.firstDueAt() : undefined;
    if (first === undefined) this.due.remove(queue);
    else this.due.put(queue, this.deps.clockOf(queue.id), first);
    this.arm();
  }

  /** Out of the due index (reset, deleted); its drain (if one runs) sees it is stale and stops. */
  forget(queue: AccountQueue): void {
    this.due.remove(queue);
    this.working.delete(queue);
    this.arm();
  }

  /** ONE real timer for the world: the soonest due account on a running clock. Moved only when that instant changes. */
  private arm(): void {
    const at = this.closed ? undefined : this.due.nextRealAt();
    if (at === this.timerAt && (at === undefined || this.timer)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === undefined) return;
    this.timer = setTimeout(() => this.tick(), Math.min(MAX_TIMER_MS, Math.max(0, at - this.deps.realTime())));
    // Never what keeps a process (or a test runner) alive.
    this.timer.unref();
  }

  /** The timer fired: drains the accounts due by now on running clocks, and only them. */
  private tick(): void {
    this.timer = undefined;
    this.timerAt = undefined;
    if (this.closed) return;
    for (const queue of this.due.dueNow()) this.kick(queue);
    this.arm();
  }

  /** For good: the timer cleared. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
  }
}
