/**
 * Where the hub's ids come from (`we_` endpoints, `evt_` events, `whd_` deliveries, and the ids of the
 * samples a triggered event is about): seeded streams per account and kind, derived from the seed,
 * the account id and the kind, as the account's seeded records and its scenario chance are. Same
 * seed + same requests = same bytes per tenant, whatever other tenants do: another account's
 * endpoints or events never move this one's ids, nor the secrets and signatures derived from them.
 * One stream per kind, so making an endpoint never moves the ids of the events that follow.
 *
 * An account reset does NOT start the account's streams over, unlike its records and its scenario
 * chance: `webhook-id` is the event id, and receivers de-duplicate on it (Standard Webhooks'
 * idempotency key; the receiver in docs/webhooks.md does), so an event after a reset reusing an id
 * from before it would be dropped as a retry by a receiver that outlives the reset. The streams go
 * on, which is as deterministic (the reset is one of the tenant's own requests). Deletion frees them
 * with the account, but not its place: an account made again with its id (a snapshot reloaded,
 * contract §5.3) is a new life of it (`Incarnations`, src/random.ts), whose streams are seeded
 * apart, so no event id of its earlier life comes again (the log forgot those with the account, so
 * the skip below would not see them), while its id is remembered (`deletedIdsBudget`; past it the id
 * deleted longest ago, sandbox-wide, is forgotten and draws its first life's ids again).
 *
 * Ids stay unique while the world lives: a draw equal to an id in use anywhere in the hub (an
 * endpoint, any account's delivery in the log) or to one a loaded snapshot holds is skipped. Streams
 * of different accounts meet only by chance (24 base-62 characters: about 2^-143 per pair of draws),
 * so what is skipped depends, in practice, only on the account's own state.
 */
import { IdGenerator, incarnationSeed, Incarnations } from '../random.js';

/** What each stream of an account draws: endpoint, event and delivery ids, and the ids of triggered events' samples. */
export type IdKind = 'we' | 'evt' | 'whd' | 'sample';

export class IdStreams {
  /** Per account: the life its streams were made in (`Incarnations`) and its stream of each kind. */
  private readonly streams = new Map<string, { life: number; kinds: Map<IdKind, IdGenerator> }>();
  /** Ids of endpoints loaded from snapshots (contract §5.3): never drawn while the world lives, even once deleted. */
  private readonly reserved = new Set<string>();
  private readonly taken = (id: string) => this.reserved.has(id) || this.inUse(id);

  constructor(
    private readonly seed: string,
    /** Whether an id is in use in the hub (an endpoint's, a delivery's in the log). */
    private readonly inUse: (id: string) => boolean,
    /** Each deleted account id's earlier lives, shared with the record streams (src/sandbox/record-ids.ts). */
    private readonly lives: Incarnations = new Incarnations(),
  ) {}

  /** The next id of `kind` (its prefix) for the account. */
  next(accountId: string, kind: Exclude<IdKind, 'sample'>): string {
    return this.of(accountId, kind).next(kind);
  }

  /** The account's stream of `kind`, made at its first draw. */
  of(accountId: string, kind: IdKind): IdGenerator {
    let mine = this.streams.get(accountId);
    if (!mine) this.streams.set(accountId, (mine = { life: this.lives.of(accountId), kinds: new Map<IdKind, IdGenerator>() }));
    let stream = mine.kinds.get(kind);
    if (!stream) {
      const seed = incarnationSeed(`webhooks\u0000${this.seed}\u0000${accountId}\u0000${kind}`, mine.life);
      mine.kinds.set(kind, (stream = new IdGenerator(seed, this.taken)));
    }
    return stream;
  }

  reserve(ids: Iterable<string>): void {
    for (const id of ids) this.reserved.add(id);
  }

  /** The account was deleted: its streams are freed; an account made later with its id draws from streams of its next life. */
  forget(accountId: string): void {
    const mine = this.streams.get(accountId);
    if (!mine) return;
    this.streams.delete(accountId);
    this.lives.ended(accountId, mine.life);
  }
}
