/**
 * The one ledger of an account's unfinished jobs, ordered by when they end: what credit checks and
 * reads settle (src/jobs/settle.ts) and what the webhook hub announces (src/webhooks/hub.ts, through
 * `WatchedJobs`). The two readers see different lifetimes of a job, so each job is in one state:
 *
 *   open     unfinished, not watched: its creating request's answer is not published yet (or the hub
 *            has let it go). Settles see it; the hub does not.
 *   watched  unfinished, watched by the hub (published). Settles see it; the hub announces it at its end.
 *   ended    seen ended by a settle (a read, a credit check) while watched or before it was watched,
 *            not announced yet. Only the hub sees it: it must still raise the job's event, in end order.
 *
 * A job leaves the ledger when it is both ended and announced (or ended and never watched). The hub's
 * order is by end, then by when the job was watched (its answer's publish): a job keeps its place
 * from `watched` to `ended`, so a read between the two never reorders the events, and two jobs ending
 * at the same instant are announced in the order their answers were published, not created.
 *
 * ONE ordered index keyed (state, end, order): every change (create, watch, settle, announce) and
 * every first-due question is O(log n); a range (what is due by an instant) costs O(log n + k) and
 * meets only the jobs of the states asked for, so no query scans jobs it then skips.
 */
import { BTree } from '../store/btree.js';
import type { JobRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { isTerminal } from './derive.js';

const OPEN = 0;
const WATCHED = 1;
const ENDED = 2;
type State = typeof OPEN | typeof WATCHED | typeof ENDED;

type Key = readonly [state: State, at: number, order: number];
const byEnd = (a: Key, b: Key): number => a[1] - b[1] || a[2] - b[2];
const compare = (a: Key, b: Key): number => a[0] - b[0] || byEnd(a, b);

/**
 * What the webhook hub reads of an account's ledger: the jobs it watches, due at their end, until it
 * has announced them (ended or not when they are watched, settled by a read meanwhile or not).
 */
export interface WatchedJobs {
  /** The job's request answered (published): its event is due at its end, after those watched before it. */
  watch(job: JobRecord): void;
  /** The soonest end of a watched job not yet announced; undefined when none. */
  firstDueAt(): number | undefined;
  /** Watched jobs not yet announced ending by `at`: by end, then by when they were watched. */
  dueBy(at: number): JobRecord[];
  /** The hub is done with the job (its event raised, or none to raise): settles alone see it from now on. */
  announced(job: JobRecord): void;
}

export class JobLedger implements WatchedJobs {
  private readonly index = new BTree<Key, JobRecord>(undefined, compare);
  private readonly keys = new Map<JobRecord, Key>();
  private order = 0;
  /** Credits held by unfinished jobs (open or watched). */
  held = 0;

  /** A new unfinished job (open); false when the ledger holds it already (count its hold once). */
  track(job: JobRecord): boolean {
    if (this.keys.has(job)) return false;
    this.put(job, [OPEN, job.timeline.ends_at_ms, this.order++]);
    this.held += job.credits_hold;
    return true;
  }

  /**
   * A settle saw the job end: it holds nothing any more; the hub still announces it if it watches it.
   * Settles see each job end once (src/jobs/settle.ts); the hold freed is the one counted, so `held`
   * is always the sum of the open and watched jobs' holds.
   */
  ended(job: JobRecord): void {
    const key = this.keys.get(job);
    if (!key || key[0] === ENDED) return;
    if (key[0] === WATCHED) this.put(job, [ENDED, key[1], key[2]]);
    else this.remove(job);
    this.held -= job.credits_hold;
  }

  /** Unfinished jobs (open or watched) ending by `at`: what a credit check settles. */
  unfinishedBy(at: number): JobRecord[] {
    return [...this.range(OPEN, at), ...this.range(WATCHED, at)];
  }

  /** Every unfinished job: what a view of the whole account settles. */
  unfinished(): JobRecord[] {
    return this.unfinishedBy(Number.POSITIVE_INFINITY);
  }

  // ---- the hub's side (WatchedJobs) ----

  watch(job: JobRecord): void {
    const key = this.keys.get(job);
    // Settled before its answer was published: ended already, announced in its place all the same.
    const state = (key ? key[0] === ENDED : isTerminal(job.status)) ? ENDED : WATCHED;
    // Unfinished and never tracked (stored after the ledger was built, by a path other than
    // createJob): it holds its credits like any other until a settle sees it end.
    if (!key && state === WATCHED) this.held += job.credits_hold;
    // Watched again (it never is, but as the hub's own index did): last among its tie.
    this.put(job, [state, job.timeline.ends_at_ms, this.order++]);
  }

  firstDueAt(): number | undefined {
    const watched = this.firstOf(WATCHED);
    const ended = this.firstOf(ENDED);
    return watched === undefined ? ended : ended === undefined ? watched : Math.min(watched, ended);
  }

  dueBy(at: number): JobRecord[] {
    const watched = this.keyedRange(WATCHED, at);
    const ended = this.keyedRange(ENDED, at);
    if (ended.length === 0) return watched.map(([, job]) => job);
    if (watched.length === 0) return ended.map(([, job]) => job);
    // Both sorted by (end, order): merged, they are in the order the hub watched them.
    const out: JobRecord[] = [];
    let w = 0;
    let e = 0;
    while (w < watched.length || e < ended.length) {
      const takeWatched = e === ended.length || (w < watched.length && byEnd(watched[w]![0], ended[e]![0]) < 0);
      out.push(takeWatched ? watched[w++]![1] : ended[e++]![1]);
    }
    return out;
  }

  announced(job: JobRecord): void {
    const key = this.keys.get(job);
    if (key?.[0] === ENDED) this.remove(job);
    // Still unfinished (the clock was set back before its turn came): settles keep seeing it.
    else if (key?.[0] === WATCHED) this.put(job, [OPEN, key[1], key[2]]);
  }

  // ---- the index ----

  private put(job: JobRecord, key: Key): void {
    this.remove(job);
    this.keys.set(job, key);
    this.index.set(key, job);
  }

  private remove(job: JobRecord): void {
    const key = this.keys.get(job);
    if (!key) return;
    this.keys.delete(job);
    this.index.delete(key);
  }

  private firstOf(state: State): number | undefined {
    const pair = this.index.getPairOrNextHigher([state, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    return pair && pair[0][0] === state ? pair[0][1] : undefined;
  }

  private keyedRange(state: State, at: number): Array<[Key, JobRecord]> {
    const out: Array<[Key, JobRecord]> = [];
    this.index.forRange(
      [state, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
      [state, at, Number.POSITIVE_INFINITY],
      true,
      (key, job) => {
        out.push([key, job]);
      },
    );
    return out;
  }

  private range(state: State, at: number): JobRecord[] {
    const out: JobRecord[] = [];
    this.index.forRange(
      [state, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
      [state, at, Number.POSITIVE_INFINITY],
      true,
      (_key, job) => {
        out.push(job);
      },
    );
    return out;
  }
}

// Keyed by the account store: reset builds new stores, so the ledgers go with them.
const ledgers = new WeakMap<AccountStore, JobLedger>();

/** The account's ledger; built from the collection the first time, so jobs inserted by any path are in it. */
export function jobLedger(store: AccountStore): JobLedger {
  let ledger = ledgers.get(store);
  if (!ledger) {
    ledger = new JobLedger();
    for (const job of store.collection('jobs').filter((record) => !isTerminal(record.status))) ledger.track(job);
    ledgers.set(store, ledger);
  }
  return ledger;
}

/** The hub's view of the account's ledger: the hub subscribes to it for the jobs whose answers it publishes. */
export function watchedJobs(store: AccountStore): WatchedJobs {
  return jobLedger(store);
}
