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
   * A fresh, empty store for an existing account, in the same place of the account order (account
   * reset): the old one's keys lose their tokens, and the caller adds back the records it restores.
   */
  replaceAccount(account: AccountRecord): AccountStore {
    const old = this.accounts.get(account.id);
    if (!old) throw new Error(`no account ${account.id}`);
    this.dropTokensOf(old);
    const scoped = new AccountStore(account);
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
