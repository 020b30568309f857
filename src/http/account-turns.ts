/**
 * One request of an account enters its operation per turn of the event loop. A tenant sending many
 * requests at once (eight 100-page crawls in flight, a worker pool sharing one key) had them all run
 * back to back in the poll phase that read them, each a few ms, ahead of every other tenant's
 * request read in that phase or the next. Here each account's first request of a turn goes on at
 * once and its others wait, in the order they arrived, for the next turns (a `setImmediate` pass
 * admits the oldest waiting request of each account, up to ADMITTED_PER_TURN accounts, round-robin):
 * another tenant waits for one request of each busy account at most, not for all of them.
 *
 * Operations that cost next to nothing and touch no records (`seededRecords: false`: status, key
 * listing, job polls) are not held back, so a client polling its jobs in parallel pays no turn per
 * poll; they still queue behind a request of their account that waits here, so an account's requests
 * pass this step in the order they arrived. (Not their operations: a body over 64 KiB waits in the
 * large-body lane after this step, and a request sent after it may enter its operation first.)
 *
 * The cost: a request that waits allocates a promise and waits a turn; one account with 16
 * connections on a heavy operation measured 3-5% fewer requests per CPU second over real HTTP.
 *
 * Keyed by the account's store (the request's capture): a reset account's next life is another account.
 */
import type { SandboxMiddleware } from './context.js';

/**
 * Requests a pass admits, across accounts: with more accounts waiting, the others get theirs in the
 * next turns, so the requests admitted together stay a bounded amount of work.
 */
export const ADMITTED_PER_TURN = 16;

export class AccountTurns {
  /** Each account's requests waiting for a turn, oldest first; an account leaves when none waits. */
  private readonly waiting = new Map<object, Array<() => void>>();
  /** Accounts that entered a request in the current turn. */
  private entered = new Set<object>();
  private scheduled = false;

  /** The step, after authentication; `light`: an operation that is never held back while its account has nothing waiting. */
  step(light: boolean): SandboxMiddleware {
    return (ctx, next) => {
      const account = ctx.state.store;
      if (!account) throw new Error('account turns must run after authenticate');
      const queue = this.waiting.get(account);
      if (queue === undefined && (light || !this.entered.has(account))) {
        if (!light) this.enter(account);
        return next();
      }
      return new Promise<void>((admit) => {
        if (queue) queue.push(admit);
        else this.waiting.set(account, [admit]);
        this.schedule();
      }).then(() => next());
    };
  }

  /** Requests waiting for a turn, every account together (tests and diagnostics). */
  get waitingCount(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  private enter(account: object): void {
    this.entered.add(account);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.turn());
  }

  private turn(): void {
    this.scheduled = false;
    this.entered = new Set();
    // The accounts at the head of the map, each moved to its back if it still has requests waiting:
    // round-robin across turns, so a pass admits ADMITTED_PER_TURN requests however many accounts wait.
    const batch: Array<[object, Array<() => void>]> = [];
    for (const entry of this.waiting) {
      if (batch.length === ADMITTED_PER_TURN) break;
      batch.push(entry);
    }
    for (const [account, queue] of batch) {
      this.waiting.delete(account);
      const admit = queue.shift()!;
      if (queue.length > 0) this.waiting.set(account, queue);
      this.entered.add(account);
      // Its operation runs in the microtasks after this pass, with the other accounts' admitted ones.
      admit();
    }
    // The next turn clears what entered in this one (and admits what still waits).
    if (this.entered.size > 0 || this.waiting.size > 0) this.schedule();
  }
}
