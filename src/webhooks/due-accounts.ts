/**
 * Which accounts have webhook work due, and when, across the world: ONE ordered structure, so that
 * filing an account, finding the accounts due on a clock and arming the timer cost O(log n) in the
 * number of accounts, and a timer tick touches only the accounts that are due.
 *
 * Accounts are grouped by the clock they follow (the sandbox clock's, or each own clock): per clock,
 * its accounts by the virtual instant of their first due item. The clocks that run are ordered by
 * the real instant their first account falls due (virtual due − the clock's now + real now), which
 * stays put while the clock runs and moves only when the clock is set: one entry per clock, so
 * moving the sandbox clock re-files one entry, not every account sharing it. A frozen clock has no
 * real instant: its accounts wait for a clock call.
 */
import type { VirtualClock } from '../clock/virtual-clock.js';
import { OrderedIndex } from '../store/ordered-index.js';

class ClockQueue<A> {
  readonly accounts = new OrderedIndex<A>();
  constructor(readonly clock: VirtualClock) {}
}

export class DueAccounts<A> {
  private readonly queues = new Map<VirtualClock, ClockQueue<A>>();
  /** Queues of running clocks by the real instant their first account falls due. */
  private readonly running = new OrderedIndex<ClockQueue<A>>();
  private readonly filedIn = new Map<A, ClockQueue<A>>();

  constructor(private readonly realTime: () => number) {}

  /** Files `account` at virtual `at` on `clock`, moving it from where it was. */
  put(account: A, clock: VirtualClock, at: number): void {
    const was = this.filedIn.get(account);
    let queue = this.queues.get(clock);
    if (!queue) this.queues.set(clock, (queue = new ClockQueue<A>(clock)));
    queue.accounts.put(at, account);
    this.filedIn.set(account, queue);
    // Moved to another clock (the account got its own): out of the old queue, or that queue keeps a
    // past-due entry the timer would be armed for again and again.
    if (was && was !== queue) {
      was.accounts.delete(account);
      this.refile(was);
    }
    this.refile(queue);
  }

  /** Nothing of `account` is due any more (or it is being worked on). */
  remove(account: A): void {
    const queue = this.filedIn.get(account);
    if (!queue) return;
    this.filedIn.delete(account);
    queue.accounts.delete(account);
    this.refile(queue);
  }

  /** The accounts filed on `clock` with something due by `until`, soonest first. */
  dueOn(clock: VirtualClock, until: number): A[] {
    return this.queues.get(clock)?.accounts.upTo(until) ?? [];
  }

  /** The soonest virtual instant something of an account filed on `clock` falls due; undefined when none. */
  firstOn(clock: VirtualClock): number | undefined {
    return this.queues.get(clock)?.accounts.firstAt();
  }

  /** `clock` was set or changed mode: its place among the running clocks follows. */
  clockMoved(clock: VirtualClock): void {
    const queue = this.queues.get(clock);
    if (queue) this.refile(queue);
  }

  /** The accounts due by now on running clocks, soonest clock first (the timer's tick). */
  dueNow(): A[] {
    const due: A[] = [];
    for (const queue of this.running.upTo(this.realTime())) {
      // One by one: a spread of ~120k accounts would overflow the call stack in the timer.
      for (const account of queue.accounts.upTo(queue.clock.now())) due.push(account);
      // Set since it was filed (not through a clock call): filed again where it is now.
      this.refile(queue);
    }
    return due;
  }

  /** The real instant the soonest account on a running clock falls due; undefined when none. */
  nextRealAt(): number | undefined {
    return this.running.firstAt();
  }

  private refile(queue: ClockQueue<A>): void {
    const first = queue.accounts.firstAt();
    if (first === undefined) {
      this.running.delete(queue);
      this.queues.delete(queue.clock);
      return;
    }
    if (queue.clock.mode !== 'running') {
      this.running.delete(queue);
      return;
    }
    // At the end of the clock's range `now()` stops, so an item due past it moves on with real
    // time and is never due (no timer firing in a loop for it).
    this.running.put(this.realTime() + (first - queue.clock.now()), queue);
  }
}
