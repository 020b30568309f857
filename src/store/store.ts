/**
 * Every tenant's records (`Store`) and one account's scoped view of them (`AccountStore`). Whole at
 * ~390 lines on purpose: the process-wide cache of derived records is private to this module so that
 * only `AccountStore` fills and reads it (a reset or deleted account's store must never enter it
 * again), and the derivation in slices works on the account's private collections and meter.
 */
import { Collection, type ReadCollection } from './collection.js';
import { deepFreeze, DERIVED_CACHE_CAPACITY, LruCache, thawedCopy } from './derived-cache.js';
import { DEFAULT_RECORD_BUDGET, recordBytes, RecordMeter } from './record-meter.js';
import { COLLECTION_NAMES, type AccountRecord, type ApiKeyRecord, type CollectionName, type CollectionRecords } from './records.js';

type Collections = { [K in CollectionName]: Collection<CollectionRecords[K]> };
type ReadCollections = { [K in CollectionName]: ReadCollection<CollectionRecords[K]> };

/**
 * Fills an account's seeded collections, in steps (it yields between them); a pure function of
 * what it captured (seed, account, template, creation instant), so running it again, in one go or
 * in slices with other work between them, gives the same records.
 */
export type SeedRecords = (store: AccountStore) => Iterator<void, void, undefined>;

/** Resolves when other work may run (the next turn of the event loop, in the server). */
export type Pause = () => Promise<void>;

/** How long one slice of a derivation runs before it pauses (src/http/derive-seeded.ts). */
export const DERIVATION_SLICE_MS = 4;

/** Records frozen and weighed between two looks at the clock (~0.1-0.3 ms of them). */
const RECORDS_PER_CLOCK_READ = 64;

/**
 * Collections no seeder fills: the hot per-request paths (authentication reads `api_keys`, job polls
 * read `jobs`) open them without deriving the account's seeded records.
 */
const UNSEEDED: ReadonlySet<CollectionName> = new Set<CollectionName>([
  'api_keys',
  'jobs',
  'form_submissions',
  'deliveries',
  'conversions',
]);

/**
 * Derived seeded collections of the accounts read most recently, frozen, keyed by the account's store
 * (a reset or a delete makes a new store or none, and drops the old key). Process-wide: every world
 * shares the bound, so the memory it costs does not grow with worlds or tenants.
 */
const derived = new LruCache<AccountStore, Partial<ReadCollections>>(DERIVED_CACHE_CAPACITY);

/**
 * One account's data. Reachable only through `Store.forAccount`, so tenancy is enforced here.
 *
 * Only what the account changes is its own, so a tenant that only reads costs its keys.
 * `collection(name)` reads: an owned collection if the account has written it, else its seeded
 * records derived from (seed, account, template, creation instant) and held, frozen, in a small
 * process-wide cache, derived again after an eviction. `write(name)` is the only way to a
 * collection that can change: the first write to a seeded collection copies it from the cached
 * derivation (unfrozen deep copies, same order) into the account, which owns it from then on; the
 * seeded bytes the record meter counts are weighed from that derivation too, so an account is
 * derived once per life in the cache, however it is first used. Seeders refer to each other's
 * records, so a derivation always makes every seeded collection; derivation is pure, so a
 * collection taken from one derivation matches the others read from another.
 *
 * A request derives in slices before its operation runs (`prepare`), so the operation finds the
 * records cached and another tenant's request waits for one slice, not for the whole derivation.
 */
export class AccountStore {
  private readonly owned: Partial<Collections> = Object.create(null) as Partial<Collections>;
  /**
   * What the records the account owns weigh, against its record budget (src/store/record-meter.ts);
   * none for a scratch store that derives seeded records. A reset makes a new store, so the count
   * starts again from the account's birth. Its seeded records count from birth, weighed the first
   * time the count is needed (`seededBytes`, given when the creation weighed them already).
   */
  private readonly meter: RecordMeter | undefined;
  /**
   * Set when the account is reset or deleted: the store is no longer the account's, so it never
   * enters the process-wide cache again (it would linger there, unreachable, until evicted). A
   * request that captured it before goes on with it: its derivation is kept here, with the store,
   * and goes when the last request holding the store does.
   */
  private dropped = false;
  private detached: Partial<ReadCollections> | undefined;
  /** The derivation in slices under way, shared by the account's requests that wait for it. */
  private pending: Promise<void> | undefined;

  constructor(
    readonly account: AccountRecord,
    private readonly seedRecords?: SeedRecords,
    recordBudget?: number,
    seededBytes?: number,
  ) {
    this.meter = recordBudget === undefined ? undefined : new RecordMeter(recordBudget, () => this.seededBytes(), seededBytes);
  }

  /** What the account's records weigh, in bytes: its seeded ones (from birth) and what it wrote since. */
  get recordBytes(): number {
    return this.meter?.bytes ?? 0;
  }

  /** The account's record budget, in bytes (Infinity for an unmetered scratch store). */
  get recordBudget(): number {
    return this.meter?.budget ?? Infinity;
  }

  /**
   * Refuses (422 naming `param`) unless `records` (or records of these sizes), written next, fit:
   * each within RECORD_LIMIT_BYTES and the account within its budget. Changes nothing: a request
   * that writes several records, or decides something before its write, asks first, so that it
   * writes all of them or none and a refusal leaves nothing behind.
   */
  admit(param: string, records: readonly (object | number)[]): void {
    this.meter?.check(
      records.map((record) => (typeof record === 'number' ? record : recordBytes(record))),
      param,
    );
  }

  get id(): string {
    return this.account.id;
  }

  /** The collections the account holds itself (written, or never seeded): what a tenant costs. */
  get ownedCollections(): CollectionName[] {
    return Object.keys(this.owned) as CollectionName[];
  }

  /** Whether this account's derived records are in the process-wide cache now (for tests). */
  get derivedCached(): boolean {
    return derived.has(this);
  }

  /** Whether a derivation in slices is under way (for tests). */
  get deriving(): boolean {
    return this.pending !== undefined;
  }

  /** The derivation under way (`prepare`), if any: what a request of the account that needs none still waits for. */
  get underWay(): Promise<void> | undefined {
    return this.pending;
  }

  /** Whether the seeded records were weighed (for the record budget) in this store's life. */
  get seededWeighed(): boolean {
    return this.meter?.weighed ?? true;
  }

  /** Whether this store's seeded records are derived now (cached, or kept by a dropped store). */
  get derivedReady(): boolean {
    return this.seedRecords === undefined || (this.dropped ? this.detached !== undefined : derived.has(this));
  }

  /**
   * Derives the account's seeded records in slices of about `sliceMs` (wall clock), awaiting `pause()`
   * between two slices, and caches them (with the seeded bytes the record meter counts): what a
   * request runs before an operation that reads them, so that the operation then runs in one short
   * turn. Nothing to do (undefined) when they are derived already; requests of the account that
   * come while it runs wait for the same derivation.
   */
  prepare(pause: Pause, sliceMs: number = DERIVATION_SLICE_MS): Promise<void> | undefined {
    // Under way first: filled meanwhile in one go (an admin call that could not wait), the requests
    // already waiting still resume first, in their order, before one that comes now.
    if (this.pending) return this.pending;
    if (this.derivedReady) return undefined;
    this.pending ??= this.deriveInSlices(pause, sliceMs).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async deriveInSlices(pause: Pause, sliceMs: number): Promise<void> {
    const scratch = new AccountStore(this.account);
    const steps = this.seedRecords!(scratch);
    let sliceStart = performance.now();
    const slice = async (): Promise<void> => {
      if (performance.now() - sliceStart < sliceMs) return;
      await pause();
      sliceStart = performance.now();
    };
    while (steps.next().done !== true) await slice();
    // Frozen (and weighed, for the meter) record by record, a slice at a time: a template may seed thousands.
    const collections = scratch.owned;
    const weigh = this.meter?.weighed === false;
    let bytes = 0;
    for (const [name, collection] of Object.entries(collections) as [CollectionName, Collection<never>][]) {
      const counted = weigh && !UNSEEDED.has(name);
      let done = 0;
      for (const record of collection.values()) {
        deepFreeze(record);
        if (counted) bytes += recordBytes(record);
        if (++done % RECORDS_PER_CLOCK_READ === 0) await slice();
      }
      await slice();
    }
    // Kept unless derived meanwhile by a request that could not wait (an admin read): the same records.
    this.keepDerived(() => collections);
    if (weigh) this.meter?.weighedAs(bytes);
  }

  /** Keeps a derivation, unless one is kept already (made meanwhile by a request that could not wait). */
  private keepDerived(make: () => Partial<ReadCollections>): Partial<ReadCollections> {
    if (this.dropped) return (this.detached ??= make());
    return derived.get(this, make);
  }

  /** The cached derivation, made in one go on a miss (after an eviction, or by a caller that did not `prepare`). */
  private derivation(): Partial<ReadCollections> {
    return this.keepDerived(() => freezeAll(this.derive()));
  }

  /** A collection to read. Its records must not be changed in place: `write(name)` first. */
  collection<K extends CollectionName>(name: K): ReadCollections[K] {
    const owned = this.owned[name];
    if (owned) return owned;
    if (this.seedRecords && !UNSEEDED.has(name)) {
      const cached = this.derivation()[name];
      if (cached) return cached;
    }
    // Not kept: a collection exists in the account only once written.
    return new Collection() as Collections[K];
  }

  /** The account's own collection `name`, made (derived, for a seeded one) on first use. */
  write<K extends CollectionName>(name: K): Collections[K] {
    const owned = this.owned[name];
    if (owned) return owned;
    // Copied from the cached derivation (its records are frozen and shared by every reader), not
    // derived again, which would make the same records by construction at the cost of a whole
    // derivation in this turn.
    const seeded = this.seedRecords && !UNSEEDED.has(name) ? this.derivation()[name] : undefined;
    const made = (seeded?.copy(thawedCopy) ?? new Collection()) as Collections[K];
    // Its seeded records were counted from birth; from now on each write to them is.
    if (this.meter) made.attachMeter(this.meter);
    this.owned[name] = made;
    return made;
  }

  /**
   * What every seeded record of the account weighs: weighed from the cached derivation for an
   * account (its meter asks once); a scratch store that only weighs (what a creation checks against
   * the budget when its pinned records or template are the creator's own) derives without caching,
   * since no later read would find it there.
   */
  seededBytes(): number {
    if (!this.seedRecords) return 0;
    let bytes = 0;
    const collections: Partial<ReadCollections> = this.meter ? this.derivation() : this.derive();
    // Only the kinds read from a derivation: a snapshot's seeder also fills kinds the account owns
    // from its birth (src/snapshot/load.ts), which count as it writes them.
    for (const [name, collection] of Object.entries(collections) as [CollectionName, ReadCollection<never>][]) {
      if (UNSEEDED.has(name)) continue;
      for (const record of collection.values()) bytes += recordBytes(record);
    }
    return bytes;
  }

  /** Every collection as plain arrays (oldest first), for the admin state snapshot. */
  snapshot(): { [K in CollectionName]: CollectionRecords[K][] } {
    const out = {} as Record<CollectionName, unknown[]>;
    for (const name of COLLECTION_NAMES) out[name] = this.collection(name).values();
    return out as { [K in CollectionName]: CollectionRecords[K][] };
  }

  /** Forgets the cached derived records (the account is reset or deleted). */
  dropDerived(): void {
    this.dropped = true;
    derived.delete(this);
  }

  /** Every seeded collection, freshly derived (in one go) into a scratch store that owns them all. */
  private derive(): Partial<Collections> {
    const scratch = new AccountStore(this.account);
    if (this.seedRecords) {
      const steps = this.seedRecords(scratch);
      while (steps.next().done !== true);
    }
    return scratch.owned;
  }
}

function freezeAll(collections: Partial<Collections>): Partial<ReadCollections> {
  for (const collection of Object.values(collections)) for (const record of collection.values()) deepFreeze(record);
  return collections;
}

export interface KeyLocation {
  accountId: string;
  keyId: string;
}

/**
 * All tenants. The per-account data is private; the only cross-account index is token -> key, which
 * authentication needs before it knows the account.
 */
export class Store {
  private readonly accounts = new Map<string, AccountStore>();
  /** Bytes of records each account may hold (src/store/record-meter.ts). */
  readonly recordBudget: number;

  constructor(options: { recordBudget?: number } = {}) {
    this.recordBudget = options.recordBudget ?? DEFAULT_RECORD_BUDGET;
  }

  private readonly keysByToken = new Map<string, KeyLocation>();
  private readonly tokenByKeyId = new Map<string, string>();

  /** `seededBytes`: what its seeded records weigh, when the creation weighed them already. */
  addAccount(account: AccountRecord, seedRecords?: SeedRecords, seededBytes?: number): AccountStore {
    if (this.accounts.has(account.id)) throw new Error(`duplicate account id ${account.id}`);
    const scoped = new AccountStore(account, seedRecords, this.recordBudget, seededBytes);
    this.accounts.set(account.id, scoped);
    return scoped;
  }

  /** The account-scoped view handlers receive. `undefined` for an unknown account. */
  forAccount(id: string): AccountStore | undefined {
    return this.accounts.get(id);
  }

  accountIds(): string[] {
    return [...this.accounts.keys()];
  }

  /**
   * Drops the account and the tokens of all its keys (contract §4.1 delete): its tokens answer 401
   * from then on. Requests still holding the old scoped store write nowhere visible.
   */
  removeAccount(id: string): boolean {
    const scoped = this.accounts.get(id);
    if (!scoped) return false;
    this.dropTokensOf(scoped);
    scoped.dropDerived();
    this.accounts.delete(id);
    return true;
  }

  /**
   * A fresh store for an existing account, in the same place of the account order (account reset):
   * the old one's keys lose their tokens; its seeded records are derived again when first needed,
   * and the caller adds back the keys it restores.
   */
  replaceAccount(account: AccountRecord, seedRecords?: SeedRecords): AccountStore {
    const old = this.accounts.get(account.id);
    if (!old) throw new Error(`no account ${account.id}`);
    this.dropTokensOf(old);
    old.dropDerived();
    const scoped = new AccountStore(account, seedRecords, this.recordBudget);
    this.accounts.set(account.id, scoped);
    return scoped;
  }

  /** Whether a live key has this token (what a new token must not be). */
  hasToken(token: string): boolean {
    return this.keysByToken.has(token);
  }

  /** The secret of a key, for the account's birth record (never shown by the API). */
  tokenOf(keyId: string): string | undefined {
    return this.tokenByKeyId.get(keyId);
  }

  private dropTokensOf(scoped: AccountStore): void {
    for (const key of scoped.collection('api_keys').values()) {
      const token = this.tokenByKeyId.get(key.id);
      if (token !== undefined) this.keysByToken.delete(token);
      this.tokenByKeyId.delete(key.id);
    }
  }

  /**
   * Adds a key to `scoped`, the account store its caller captured, never to whatever store holds the
   * account's id by now: a request whose account was reset or deleted meanwhile writes into the
   * discarded store (contract §4.1: it finishes against the state it started in), and its token is
   * not indexed, so the key never authenticates and the live account's keys stay those it has.
   */
  addApiKey(scoped: AccountStore, key: ApiKeyRecord, token: string): ApiKeyRecord {
    if (this.keysByToken.has(token)) throw new Error(`duplicate API key token for ${key.id}`);
    if (this.tokenByKeyId.has(key.id)) throw new Error(`duplicate API key id ${key.id}`);
    // Counted, not asked: a new key was admitted before its id was drawn (World.createApiKey), and
    // the others are an account's birth keys, restored as they were.
    scoped.write('api_keys').insert(key, null);
    if (!this.holds(scoped)) return key;
    this.keysByToken.set(token, { accountId: scoped.id, keyId: key.id });
    this.tokenByKeyId.set(key.id, token);
    return key;
  }

  /** Whether `scoped` is the account's live store (not one a reset replaced or a delete dropped). */
  holds(scoped: AccountStore): boolean {
    return this.accounts.get(scoped.id) === scoped;
  }

  /** Resolves a bearer token to its account and key record. */
  findByToken(token: string): { account: AccountStore; key: ApiKeyRecord } | undefined {
    const location = this.keysByToken.get(token);
    if (!location) return undefined;
    const account = this.accounts.get(location.accountId);
    const key = account?.collection('api_keys').get(location.keyId);
    return account && key ? { account, key } : undefined;
  }

  /** Finds a key by id across accounts: admin only (expire, revoke). */
  findKeyById(keyId: string): { account: AccountStore; key: ApiKeyRecord } | undefined {
    const token = this.tokenByKeyId.get(keyId);
    return token === undefined ? undefined : this.findByToken(token);
  }
}
