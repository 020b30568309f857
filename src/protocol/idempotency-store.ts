/**
 * The memory behind `Idempotency-Key` (spec §8): per account and key, the fingerprint of the first
 * request and, once it has finished, the response to replay. Entries live 24 hours of the account's
 * virtual clock from the first request; nothing runs on a timer. Part of the World: reset empties it.
 *
 * Bounded in bytes as well as in keys (README "Idempotency"):
 * - each account's entries weigh at most `budget` bytes, every account's together at most
 *   `totalBudget`. Over its budget, an account's oldest stored answers are dropped first; over the
 *   ceiling, the heaviest account's, so one tenant's flood never costs a light neighbour its keys.
 *   The key of a dropped answer stays as a tombstone (its fingerprint and expiry, a few hundred
 *   bytes): a retry within the 24 hours is refused (`evicted`), never run a second time, and another
 *   payload under it is still a mismatch. An answer larger than a whole budget is never stored (its
 *   key is a tombstone at once) and drops nothing else;
 * - only when tombstones alone are over a budget, or past IDEMPOTENCY_KEYS_PER_ACCOUNT keys (a frozen
 *   clock never expires anything), is the oldest key forgotten outright: its retry then runs as new;
 * - expired entries are dropped when their account is looked up, and a few accounts at a time are
 *   swept on every lookup of any account, so an idle account's are freed by other tenants' writes.
 *
 * Whole at ~420 lines on purpose: the entry states, the per-account and sandbox-wide byte ledgers,
 * eviction to tombstones and the sweep change the same entries and the same counters in one step
 * (an eviction moves bytes out of both ledgers and re-files the entry in its queue); split, each
 * piece would reach into the others' state to keep the budgets exact.
 */
import { HeaviestFirst } from '../store/heaviest-first.js';
import { weighText } from './text-bytes.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Keys remembered per account, whatever the clock does (README "Idempotency"). A test suite retries
 * within seconds, so the newest 10,000 are plenty; the byte budgets bound what their answers weigh.
 */
export const IDEMPOTENCY_KEYS_PER_ACCOUNT = 10_000;

/** Default of `idempotencyBudget`: what one account's remembered keys and answers may weigh. */
export const DEFAULT_IDEMPOTENCY_BUDGET = 8 * 1024 * 1024;
/** Default of `idempotencyTotalBudget`: what every account's together may weigh. */
export const DEFAULT_IDEMPOTENCY_TOTAL_BUDGET = 64 * 1024 * 1024;

/**
 * What a remembered key weighs besides the key itself and its answer: the record, its map entry,
 * its places in the eviction queues and the payload's digest (a SHA-256 in base64, see
 * src/http/idempotency.ts). Rounded up from the heap's own figures.
 */
export const IDEMPOTENCY_ENTRY_OVERHEAD = 256;

/** Expired entries dropped per account visited by a sweep, and accounts visited per lookup: bounded work. */
const SWEEP_ACCOUNTS = 2;
const SWEEP_ENTRIES = 64;

/** A finished response, exactly as it is to be sent again. */
export interface StoredResponse {
  status: number;
  /** The serialized JSON body, byte for byte; `undefined` for a response without a body. */
  body: string | undefined;
  /** Headers that belong to the response itself (e.g. `Allow` on an error); never Request-Id or rate limits. */
  headers: Record<string, string>;
}

/** The byte and key bounds of the store, and the clock each account's entries expire by. */
export interface IdempotencyLimits {
  keysPerAccount?: number;
  budget?: number;
  totalBudget?: number;
  /** An account's now (its own clock, or the sandbox's): what the sweep of idle accounts reads. */
  nowOf?: (scope: string) => number;
}

type EntryState =
  /** The first request still runs; its retries wait. */
  | 'pending'
  /** Its answer is stored, to be replayed. */
  | 'completed'
  /** Its answer was dropped by a budget within the 24 hours: retries are refused. */
  | 'evicted'
  /** No longer in the store (expired, forgotten, or over the key cap). */
  | 'gone';

class Entry {
  state: EntryState = 'pending';
  response: StoredResponse | undefined = undefined;
  /** What the stored answer weighs; 0 without one. */
  answerWeight = 0;
  readonly expiresAt: number;
  /** The key, the digest and the record: counted for as long as the key is remembered. */
  readonly weight: number;

  constructor(
    readonly account: AccountEntries,
    readonly key: string,
    readonly fingerprint: string,
    firstSeen: number,
    readonly settled: Promise<void>,
  ) {
    this.expiresAt = firstSeen + IDEMPOTENCY_TTL_MS;
    this.weight = IDEMPOTENCY_ENTRY_OVERHEAD + key.length + fingerprint.length;
  }
}

/**
 * Oldest first, with lazy removal: an item no longer `live` is skipped when met at the front and
 * dropped by a compaction once the dead outnumber the live, so every operation is O(1) amortized.
 */
class Queue {
  private items: Entry[] = [];
  private head = 0;

  constructor(private readonly live: (entry: Entry) => boolean) {}

  push(entry: Entry, liveCount: number): void {
    this.items.push(entry);
    if (this.items.length - this.head > 2 * liveCount + 1024) {
      this.items = this.items.slice(this.head).filter(this.live);
      this.head = 0;
    }
  }

  /** The oldest live item (dead ones met on the way are dropped), or undefined. */
  oldest(): Entry | undefined {
    while (this.head < this.items.length) {
      const entry = this.items[this.head]!;
      if (this.live(entry)) {
        // The items before `head` are passed for good: once they are most of the array, let them go
        // (else a queue that is both pushed and shed keeps every entry it ever held).
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items = this.items.slice(this.head);
          this.head = 0;
        }
        return entry;
      }
      this.head += 1;
    }
    this.items = [];
    this.head = 0;
    return undefined;
  }

  /** Entries the queue still references, live or not (tests: what it holds stays bounded). */
  get held(): number {
    return this.items.length;
  }
}

const holdsAnswer = (entry: Entry) => entry.state === 'completed';
const isTombstone = (entry: Entry) => entry.state === 'evicted';

/**
 * The byte accounting of one scope (an account, or the whole sandbox): its answers and tombstones,
 * oldest first, and what its entries weigh.
 */
class Ledger {
  readonly answers = new Queue(holdsAnswer);
  readonly tombstones = new Queue(isTombstone);
  answerCount = 0;
  tombstoneCount = 0;
  bytes = 0;
  /** What its tombstones weigh: kept to at most half its budget, so answers always have the rest. */
  tombstoneBytes = 0;
}

class AccountEntries extends Ledger {
  /** Its keys in first-use order: the oldest first, for expiry and for the key cap. */
  readonly entries = new Map<string, Entry>();

  constructor(readonly scope: string) {
    super();
  }
}

/** What to do with a request that carries a key. */
export type IdempotencyLookup =
  /** First use (or the previous one expired or was not kept): run it, then call `finish`. */
  | { kind: 'new'; finish(response: StoredResponse | undefined): void }
  | { kind: 'replay'; response: StoredResponse }
  /** The key was first used with another payload. */
  | { kind: 'mismatch' }
  /** The first request with this key and payload is still running: wait, then look up again. */
  | { kind: 'wait'; settled: Promise<void> }
  /** The first request's answer was dropped by a byte budget within its 24 hours: refuse, never run it again. */
  | { kind: 'evicted' };

export class IdempotencyStore {
  private readonly accounts = new Map<string, AccountEntries>();
  /** Every account's answers and tombstones together: what the sandbox-wide ceiling drops from. */
  private readonly sandbox = new Ledger();
  /** Every account with entries, the heaviest first: what the sandbox-wide ceiling sheds from. */
  private readonly byWeight = new HeaviestFirst<AccountEntries>();
  /** Every account with tombstones, the most tombstone bytes first. */
  private readonly byTombstones = new HeaviestFirst<AccountEntries>();
  private count = 0;
  /** Where the sweep of expired entries goes on, one account after another. */
  private sweepCursor: Iterator<AccountEntries> | undefined;
  readonly keysPerAccount: number;
  readonly budget: number;
  readonly totalBudget: number;
  private readonly nowOf: ((scope: string) => number) | undefined;

  constructor(limits: IdempotencyLimits = {}) {
    this.keysPerAccount = limits.keysPerAccount ?? IDEMPOTENCY_KEYS_PER_ACCOUNT;
    this.budget = limits.budget ?? DEFAULT_IDEMPOTENCY_BUDGET;
    this.totalBudget = limits.totalBudget ?? DEFAULT_IDEMPOTENCY_TOTAL_BUDGET;
    this.nowOf = limits.nowOf;
  }

  /** Entries held, every account together. */
  get size(): number {
    return this.count;
  }

  /** What every account's entries weigh together, in bytes. */
  get bytes(): number {
    return this.sandbox.bytes;
  }

  /**
   * Entries the byte accounting's queues still reference, every account's and the sandbox's,
   * forgotten ones included until they are compacted away: O(accounts), for tests that hold the
   * store's memory bounded.
   */
  get queued(): number {
    let held = this.sandbox.answers.held + this.sandbox.tombstones.held;
    for (const account of this.accounts.values()) held += account.answers.held + account.tombstones.held;
    return held;
  }

  /** What one account's entries weigh, in bytes. */
  bytesOf(scope: string): number {
    return this.accounts.get(scope)?.bytes ?? 0;
  }

  /** Drops every key remembered for the account (account reset and delete, contract §4.1). */
  forget(scope: string): void {
    const account = this.accounts.get(scope);
    if (!account) return;
    // Pending ones too: their requests finish into nothing (`finish` checks the state).
    for (const entry of account.entries.values()) this.remove(entry);
    this.accounts.delete(scope);
  }

  begin(scope: string, key: string, fingerprint: string, now: number): IdempotencyLookup {
    this.sweep();
    let account = this.accounts.get(scope);
    if (!account) this.accounts.set(scope, (account = new AccountEntries(scope)));
    this.dropExpired(account, now, Infinity);
    let entry = account.entries.get(key);
    if (entry && entry.state !== 'pending' && now >= entry.expiresAt) {
      this.remove(entry);
      entry = undefined;
    }
    if (!entry) return this.start(account, key, fingerprint, now);
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (entry.state === 'pending') return { kind: 'wait', settled: entry.settled };
    if (entry.state === 'evicted') return { kind: 'evicted' };
    return { kind: 'replay', response: entry.response! };
  }

  private start(account: AccountEntries, key: string, fingerprint: string, now: number): IdempotencyLookup {
    let settle!: () => void;
    const entry = new Entry(account, key, fingerprint, now, new Promise<void>((resolve) => (settle = resolve)));
    account.entries.set(key, entry);
    this.count += 1;
    this.addWeight(account, entry.weight);
    if (account.entries.size > this.keysPerAccount) this.forgetOldestKey(account);
    this.fit(account);
    return {
      kind: 'new',
      finish: (response) => {
        // Only while the entry is still this request's: forgotten meanwhile (account reset), it stays gone.
        if (entry.state === 'pending') {
          if (response) this.store(entry, response);
          else this.remove(entry);
        }
        settle();
      },
    };
  }

  private store(entry: Entry, response: StoredResponse): void {
    const account = entry.account;
    const answerWeight = weighAnswer(response);
    if (entry.weight + answerWeight > Math.min(this.budget, this.totalBudget)) {
      // It could never be kept: dropping the account's other answers to make room would only lose
      // them as well. The key stays as a tombstone, so its retry is refused, never run again.
      this.bury(entry);
      this.fit(account);
      return;
    }
    entry.state = 'completed';
    entry.response = response;
    entry.answerWeight = answerWeight;
    for (const ledger of [account, this.sandbox]) {
      ledger.answerCount += 1;
      ledger.answers.push(entry, ledger.answerCount);
    }
    this.addWeight(account, entry.answerWeight);
    this.fit(account);
  }

  /**
   * Brings the account within its budget, then the sandbox within its ceiling. The oldest stored
   * answers go first (their keys stay, as tombstones); tombstones may take half a budget, beyond
   * that the oldest of them are forgotten, so the newest answers always have room. A pending entry
   * is never dropped: its retry would run the operation a second time.
   */
  private fit(account: AccountEntries): void {
    while (account.bytes > this.budget && this.shed(account, this.budget)) {
      // Shed one more.
    }
    // Over the ceiling, the heaviest account pays: a light tenant's keys survive a heavy
    // neighbour's flood. Past half the ceiling in tombstones, the account holding the most
    // tombstones forgets its oldest; else the heaviest account sheds by its own rule. The
    // sandbox's oldest go only when the heaviest holds nothing but requests still running.
    while (this.sandbox.bytes > this.totalBudget) {
      const buried = this.sandbox.tombstoneBytes > this.totalBudget / 2 ? this.byTombstones.heaviest()?.tombstones.oldest() : undefined;
      if (buried) {
        this.remove(buried);
        continue;
      }
      const heaviest = this.byWeight.heaviest();
      if (heaviest && this.shed(heaviest, this.budget)) continue;
      if (!this.shed(this.sandbox, this.totalBudget)) break;
    }
  }

  /** Drops one thing from `ledger` over its budget; false when nothing is left but running requests. */
  private shed(ledger: Ledger, budget: number): boolean {
    const tombstone = ledger.tombstoneBytes > budget / 2 ? ledger.tombstones.oldest() : undefined;
    if (tombstone) {
      this.remove(tombstone);
      return true;
    }
    const answer = ledger.answers.oldest();
    if (answer) {
      this.evict(answer);
      return true;
    }
    const last = ledger.tombstones.oldest();
    if (last) {
      this.remove(last);
      return true;
    }
    // Only keys of requests still running, or (per account) keys whose answers were not kept yet.
    return ledger instanceof AccountEntries && this.forgetOldestKey(ledger);
  }

  /** Its answer goes, its key stays (spec §8: a retry is refused, not run again). */
  private evict(entry: Entry): void {
    this.addWeight(entry.account, -entry.answerWeight);
    entry.answerWeight = 0;
    for (const ledger of [entry.account, this.sandbox]) ledger.answerCount -= 1;
    this.bury(entry);
  }

  /** A tombstone from now on: the key, its payload digest and its expiry, without an answer. */
  private bury(entry: Entry): void {
    entry.state = 'evicted';
    entry.response = undefined;
    for (const ledger of [entry.account, this.sandbox]) {
      ledger.tombstoneCount += 1;
      ledger.tombstoneBytes += entry.weight;
      ledger.tombstones.push(entry, ledger.tombstoneCount);
    }
    this.byTombstones.set(entry.account, entry.account.tombstoneBytes);
  }

  /** The account's oldest key that is not running, forgotten outright; false when every one is running. */
  private forgetOldestKey(account: AccountEntries): boolean {
    // Pending entries are as many as requests in flight, so the walk past them is short.
    for (const entry of account.entries.values()) {
      if (entry.state !== 'pending') {
        this.remove(entry);
        return true;
      }
    }
    return false;
  }

  private remove(entry: Entry): void {
    if (entry.state === 'gone') return;
    const account = entry.account;
    for (const ledger of [account, this.sandbox]) {
      if (entry.state === 'completed') ledger.answerCount -= 1;
      if (entry.state === 'evicted') {
        ledger.tombstoneCount -= 1;
        ledger.tombstoneBytes -= entry.weight;
      }
    }
    if (entry.state === 'evicted') this.byTombstones.set(account, account.tombstoneBytes);
    this.addWeight(account, -(entry.weight + entry.answerWeight));
    entry.state = 'gone';
    entry.response = undefined;
    entry.answerWeight = 0;
    if (account.entries.get(entry.key) === entry) account.entries.delete(entry.key);
    this.count -= 1;
  }

  private addWeight(account: AccountEntries, bytes: number): void {
    account.bytes += bytes;
    this.sandbox.bytes += bytes;
    this.byWeight.set(account, account.bytes);
  }

  /**
   * Map order is first-use order, which is expiry order while the clock moves forward; stop at the
   * first live entry, or after `max`. (If the clock was set back, `begin` still refuses an expired
   * entry by itself.)
   */
  private dropExpired(account: AccountEntries, now: number, max: number): void {
    let dropped = 0;
    for (const entry of account.entries.values()) {
      if (entry.state === 'pending' || now < entry.expiresAt || dropped === max) return;
      this.remove(entry);
      dropped += 1;
    }
  }

  /**
   * A few accounts further on, each by its own clock: their expired entries are let go without
   * waiting for their next write (a suite that stopped writing, a clock advanced past the 24 hours).
   * Bounded work per lookup; accounts left empty are dropped from the map. Without `nowOf` the
   * other accounts' clocks are unknown: nothing is swept.
   */
  private sweep(): void {
    const nowOf = this.nowOf;
    if (!nowOf) return;
    for (let visited = 0; visited < SWEEP_ACCOUNTS; visited++) {
      let next = this.sweepCursor?.next();
      if (!next || next.done) {
        this.sweepCursor = this.accounts.values();
        next = this.sweepCursor.next();
        if (next.done) return;
      }
      const account = next.value;
      this.dropExpired(account, nowOf(account.scope), SWEEP_ENTRIES);
      if (account.entries.size === 0) this.accounts.delete(account.scope);
    }
  }
}

/** A stored answer's weight: its body's UTF-8 bytes and its own headers. */
function weighAnswer(response: StoredResponse): number {
  let bytes = response.body === undefined ? 0 : weighText(response.body);
  for (const name in response.headers) bytes += name.length + weighText(response.headers[name]!);
  return bytes;
}
