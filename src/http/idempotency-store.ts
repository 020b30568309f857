/**
 * The memory behind `Idempotency-Key` (spec §8): per account and key, the fingerprint of the first
 * request and, once it has finished, the response to replay. Entries live 24 hours of the virtual
 * clock from the first request and are dropped lazily (on lookup, and from the oldest end of the
 * map on each new write), so nothing runs on a timer. Created in `Sandbox.boot()`: reset empties it.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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
  private readonly entries = new Map<string, Entry>();

  get size(): number {
    return this.entries.size;
  }

  begin(scope: string, key: string, fingerprint: string, now: number): IdempotencyLookup {
    this.dropExpired(now);
    const id = `${scope}\u0000${key}`;
    let entry = this.entries.get(id);
    if (entry?.state === 'completed' && now >= entry.expiresAt) {
      this.entries.delete(id);
      entry = undefined;
    }
    if (!entry) return this.start(id, fingerprint, now);
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (entry.state === 'pending') return { kind: 'wait', settled: entry.settled };
    return { kind: 'replay', response: entry.response };
  }

  private start(id: string, fingerprint: string, now: number): IdempotencyLookup {
    let settle!: () => void;
    const pending: PendingEntry = { state: 'pending', fingerprint, firstSeen: now, settled: new Promise<void>((resolve) => (settle = resolve)) };
    this.entries.set(id, pending);
    return {
      kind: 'new',
      finish: (response) => {
        // Only the request that created the entry finishes it (a reset in between made a new store).
        if (this.entries.get(id) === pending) {
          if (response) {
            this.entries.set(id, { state: 'completed', fingerprint, expiresAt: pending.firstSeen + IDEMPOTENCY_TTL_MS, response });
          } else {
            this.entries.delete(id);
          }
        }
        settle();
      },
    };
  }

  /**
   * Map order is first-use order, which is expiry order while the clock moves forward; stop at the
   * first live entry. (If the clock was set back, `begin` still refuses an expired entry by itself.)
   */
  private dropExpired(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.state === 'pending' || now < entry.expiresAt) return;
      this.entries.delete(id);
    }
  }
}
