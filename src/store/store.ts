import { Collection } from './collection.js';
import { COLLECTION_NAMES, type AccountRecord, type ApiKeyRecord, type CollectionName, type CollectionRecords } from './records.js';

type Collections = { [K in CollectionName]: Collection<CollectionRecords[K]> };

/** One account's data. Reachable only through `Store.forAccount`, so tenancy is enforced here. */
export class AccountStore {
  private readonly collections: Collections;

  constructor(readonly account: AccountRecord) {
    const collections = {} as Record<CollectionName, Collection<never>>;
    for (const name of COLLECTION_NAMES) collections[name] = new Collection();
    this.collections = collections;
  }

  get id(): string {
    return this.account.id;
  }

  collection<K extends CollectionName>(name: K): Collections[K] {
    return this.collections[name];
  }

  /** Every collection as plain arrays (oldest first), for the admin state snapshot. */
  snapshot(): { [K in CollectionName]: CollectionRecords[K][] } {
    const out = {} as Record<CollectionName, unknown[]>;
    for (const name of COLLECTION_NAMES) out[name] = this.collections[name].values();
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

  addAccount(account: AccountRecord): AccountStore {
    if (this.accounts.has(account.id)) throw new Error(`duplicate account id ${account.id}`);
    const scoped = new AccountStore(account);
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
