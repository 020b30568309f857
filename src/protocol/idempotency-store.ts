/**
 * The memory behind `Idempotency-Key` (spec §8): per account and key, the fingerprint of the first
 * request and, once it has finished, the response to replay. Entries live 24 hours of the virtual
 * clock from the first request and are dropped lazily (on lookup, and from the oldest end of the
 * account's map on each new write), so nothing runs on a timer. A frozen clock never expires
 * anything, so each account also keeps only its newest IDEMPOTENCY_KEYS_PER_ACCOUNT keys: a write with
 * a new key beyond that evicts the account's oldest. Part of the World: reset empties it.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Keys remembered per account, whatever the clock does (README "Idempotency"). A test suite retries
 * within seconds, so the newest 10,000 are plenty; at roughly 0.7 kB per remembered small response,
 * an account's memory stays under ~10 MB however many writes a frozen-clock run sends.
 */
export const IDEMPOTENCY_KEYS_PER_ACCOUNT = 10_000;

/** A finished response, exactly as it is to be sent again. */
export interface StoredResponse {
  status: number;
  /** The serialized JSON body, byte for byte; `undefined` for a response without a body. */
  body: string | undefined;
  /** Headers that belong to the response itself (e.g. `Allow` on an error); never Request-Id or rate limits. */
  headers: Record<string, string>;
}

interface PendingEntry {
  state: 'pending';
  fingerprint: string;
  firstSeen: number;
  settled: Promise<void>;
}

interface CompletedEntry {
  state: 'completed';
  fingerprint: string;
  expiresAt: number;
  response: StoredResponse;
}

type Entry = PendingEntry | CompletedEntry;

/** What to do with a request that carries a key. */
export type IdempotencyLookup =
  /** First use (or the previous one expired or was not kept): run it, then call `finish`. */
  | { kind: 'new'; finish(response: StoredResponse | undefined): void }
  | { kind: 'replay'; response: StoredResponse }
  /** The key was first used with another payload. */
  | { kind: 'mismatch' }
  /** The first request with this key and payload is still running: wait, then look up again. */
  | { kind: 'wait'; settled: Promise<void> };

export class IdempotencyStore {
  /** Per account, its keys in first-use order: the oldest first, for expiry and for eviction. */
  private readonly accounts = new Map<string, Map<string, Entry>>();
  private count = 0;

  constructor(private readonly perAccount = IDEMPOTENCY_KEYS_PER_ACCOUNT) {}

  /** Entries held, every account together. */
  get size(): number {
    return this.count;
  }

  /** Drops every key remembered for the account (account reset and delete, contract §4.1). */
  forget(scope: string): void {
    const entries = this.accounts.get(scope);
    if (!entries) return;
    this.count -= entries.size;
    this.accounts.delete(scope);
  }

  begin(scope: string, key: string, fingerprint: string, now: number): IdempotencyLookup {
    let entries = this.accounts.get(scope);
    if (!entries) this.accounts.set(scope, (entries = new Map<string, Entry>()));
    this.dropExpired(entries, now);
    let entry = entries.get(key);
    if (entry?.state === 'completed' && now >= entry.expiresAt) {
      this.remove(entries, key);
      entry = undefined;
    }
    if (!entry) return this.start(entries, key, fingerprint, now);
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (entry.state === 'pending') return { kind: 'wait', settled: entry.settled };
    return { kind: 'replay', response: entry.response };
  }

  private start(entries: Map<string, Entry>, key: string, fingerprint: string, now: number): IdempotencyLookup {
    let settle!: () => void;
    const pending: PendingEntry = {
      state: 'pending',
      fingerprint,
      firstSeen: now,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    entries.set(key, pending);
    this.count += 1;
    if (entries.size > this.perAccount) this.evictOldestCompleted(entries);
    return {
      kind: 'new',
      finish: (response) => {
        // Only while the entry is still this request's: it may have been evicted by newer keys meanwhile.
        if (entries.get(key) === pending) {
          if (response) {
            entries.set(key, { state: 'completed', fingerprint, expiresAt: pending.firstSeen + IDEMPOTENCY_TTL_MS, response });
          } else {
            this.remove(entries, key);
          }
        }
        settle();
      },
    };
  }

  /**
   * Over the cap: the account's oldest completed key goes (first-use order). A pending one is passed
   * over: evicting it would let a retry run the operation a second time while the first still runs.
   * Pending entries are as many as requests in flight, so the walk is short.
   */
  private evictOldestCompleted(entries: Map<string, Entry>): void {
    for (const [key, entry] of entries) {
      if (entry.state === 'completed') {
        this.remove(entries, key);
        return;
      }
    }
  }

  private remove(entries: Map<string, Entry>, key: string): void {
    if (entries.delete(key)) this.count -= 1;
  }

  /**
   * Map order is first-use order, which is expiry order while the clock moves forward; stop at the
   * first live entry. (If the clock was set back, `begin` still refuses an expired entry by itself.)
   */
  private dropExpired(entries: Map<string, Entry>, now: number): void {
    for (const [key, entry] of entries) {
      if (entry.state === 'pending' || now < entry.expiresAt) return;
      this.remove(entries, key);
    }
  }
}
