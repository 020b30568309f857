import { Collection } from './collection.js';
import { COLLECTION_NAMES, type AccountRecord, type ApiKeyRecord, type CollectionName, type CollectionRecords } from './records.js';

type Collections = { [K in CollectionName]: Collection<CollectionRecords[K]> };

/**
 * Fills an account's seeded collections; a pure function of what it captured (seed, account,
 * template, creation instant), so running it again gives the same records.
 */
export type SeedRecords = (store: AccountStore) => void;

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
 * One account's data. Reachable only through `Store.forAccount`, so tenancy is enforced here.
 *
 * Seeded records are derived when first needed (issue 16): the first time a seeded collection is
 * opened, `seedRecords` runs once and fills every seeded collection (seeders refer to each other's
 * records). Until then the account holds no record but its keys, and a collection exists only once
 * opened. A derived record is then an ordinary record: changed in place, deleted, paged.
 */
export class AccountStore {
  private readonly collections: Partial<Collections> = Object.create(null) as Partial<Collections>;
  private seedRecords: SeedRecords | undefined;

  constructor(
    readonly account: AccountRecord,
    seedRecords?: SeedRecords,
  ) {
    this.seedRecords = seedRecords;
  }

  get id(): string {
    return this.account.id;
  }

  /** False until the seeded records have been derived (or when the account has none to derive). */
  get seedPending(): boolean {
    return this.seedRecords !== undefined;
  }

  /** How many collections hold state (were opened): what a tenant that did nothing costs. */
  get openCollections(): number {
    return Object.keys(this.collections).length;
  }

  collection<K extends CollectionName>(name: K): Collections[K] {
    if (this.seedRecords && !UNSEEDED.has(name)) {
      const seed = this.seedRecords;
      // Cleared first: the seeders open collections themselves.
      this.seedRecords = undefined;
      seed(this);
    }
    return (this.collections[name] ??= new Collection() as Collections[K]);
  }

  /** Every collection as plain arrays (oldest first), for the admin state snapshot. */
  snapshot(): { [K in CollectionName]: CollectionRecords[K][] } {
    const out = {} as Record<CollectionName, unknown[]>;
    for (const name of COLLECTION_NAMES) out[name] = this.collection(name).values();
    return out as { [K in CollectionName]: CollectionRecords[K][] };
  }
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
  private readonly keysByToken = new Map<string, KeyLocation>();
  private readonly tokenByKeyId = new Map<string, string>();

  addAccount(account: AccountRecord, seedRecords?: SeedRecords): AccountStore {
    if (this.accounts.has(account.id)) throw new Error(`duplicate account id ${account.id}`);
    const scoped = new AccountStore(account, seedRecords);
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
    const scoped = new AccountStore(account, seedRecords);
    this.accounts.set(account.id, scoped);
    return scoped;
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

  addApiKey(accountId: string, key: ApiKeyRecord, token: string): ApiKeyRecord {
    const scoped = this.accounts.get(accountId);
    if (!scoped) throw new Error(`no account ${accountId}`);
    if (this.keysByToken.has(token)) throw new Error(`duplicate API key token for ${key.id}`);
    if (this.tokenByKeyId.has(key.id)) throw new Error(`duplicate API key id ${key.id}`);
    scoped.collection('api_keys').insert(key);
    this.keysByToken.set(token, { accountId, keyId: key.id });
    this.tokenByKeyId.set(key.id, token);
    return key;
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
