/**
 * Where the ids of what an account's requests make come from: API keys (id and token, whoever asks
 * for them: `/v1/auth/keys`, `POST /__admin/api_keys`, the Default key of `POST /__admin/accounts`),
 * jobs, form submissions and their deliveries, customers made by matching, event sessions,
 * conversions. Seeded streams per account and kind, derived from the seed, the account id and the
 * kind, as the account's seeded records and its webhook ids are (src/webhooks/id-streams.ts). Same
 * seed + same requests = same bytes per tenant, whatever other tenants do: another account's traffic
 * never moves this one's ids, nor the tokens and signatures derived from them. One stream per kind
 * (an id's prefix; a secret's prefix is a kind of its own), so making a key never moves the ids of
 * the jobs that follow. A stream is made at its first draw; an account that makes nothing costs none.
 *
 * An account reset does NOT start the account's streams over (contract §4.1): the keys made after
 * the account's creation are gone and answer 401, and a client holding one of their tokens must never
 * find it valid again, which a stream started over would do by drawing it a second time. The record
 * streams go on with the key streams, so every id an account was ever given stays its own (a job id
 * polled before the reset is 404 after it, never another job). As deterministic: the reset is one of
 * the tenant's own requests. Deletion frees the streams with the account and counts its life: an
 * account made again with that id draws from streams seeded apart (src/random.ts `Incarnations`,
 * shared with the webhook streams, within `deletedIdsBudget`), so no token is handed out twice while
 * its id is remembered; past the budget the id deleted longest ago is forgotten and, made again,
 * draws its first life's ids and tokens again (src/random.ts says why no design avoids it).
 * `POST /__admin/reset` makes a new world, whose streams start over as at boot.
 *
 * Ids stay unique while the world lives: a draw equal to a key id or token in use anywhere in the
 * sandbox (authentication and the admin's key routes look them up sandbox-wide), or to an id or
 * secret a loaded snapshot holds, is skipped. Streams of different accounts meet only by chance (24
 * base-62 characters: about 2^-143 per pair of draws), so what is skipped depends, in practice, only
 * on the account's own state.
 */
import { IdGenerator, incarnationSeed, Incarnations, type IdSource } from '../random.js';

/** One account's streams, one per kind. */
class AccountIds implements IdSource {
  private readonly streams = new Map<string, IdGenerator>();

  constructor(
    /** The life of the account id these streams were made in (`Incarnations`). */
    readonly life: number,
    private readonly root: string,
    private readonly taken: (value: string) => boolean,
  ) {}

  next(prefix: string): string {
    return this.stream(prefix).next(prefix);
  }

  secret(prefix: string): string {
    return this.stream(`secret\u0000${prefix}`).secret(prefix);
  }

  private stream(kind: string): IdGenerator {
    let stream = this.streams.get(kind);
    if (!stream) this.streams.set(kind, (stream = new IdGenerator(`${this.root}\u0000${kind}`, this.taken)));
    return stream;
  }
}

export class RecordIdStreams {
  private readonly accounts = new Map<string, AccountIds>();
  /** Ids and secrets of accounts loaded from snapshots (contract §5.3): never drawn while the world lives. */
  private readonly reserved = new Set<string>();
  private readonly taken = (value: string) => this.reserved.has(value) || this.inUse(value);

  constructor(
    private readonly seed: string,
    /** Whether a value is a key id or token in use anywhere in the sandbox. */
    private readonly inUse: (value: string) => boolean,
    /** Earlier lives of deleted account ids, shared with the webhook streams: an account made again with one draws apart from them. */
    private readonly lives: Incarnations = new Incarnations(),
  ) {}

  /** The account's streams, made at its first draw. */
  of(accountId: string): IdSource {
    let ids = this.accounts.get(accountId);
    if (!ids) {
      const life = this.lives.of(accountId);
      const root = incarnationSeed(`records\u0000${this.seed}\u0000${accountId}`, life);
      this.accounts.set(accountId, (ids = new AccountIds(life, root, this.taken)));
    }
    return ids;
  }

  reserve(values: Iterable<string>): void {
    for (const value of values) this.reserved.add(value);
  }

  /**
   * The account was deleted: its streams are freed, and its life is counted, so an account made later
   * with its id (`POST /__admin/accounts {"id"}`, a snapshot loaded again) draws other ids and tokens:
   * a token of the deleted account never authenticates again (contract §4.1).
   */
  forget(accountId: string): void {
    const ids = this.accounts.get(accountId);
    if (!ids) return;
    this.accounts.delete(accountId);
    this.lives.ended(accountId, ids.life);
  }
}
