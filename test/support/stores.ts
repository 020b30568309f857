/** The account stores of an app under test, and which collections a seeder fills. */
import type { MockApp } from '../../src/app.js';
import type { CollectionName } from '../../src/store/records.js';
import type { AccountStore } from '../../src/store/store.js';

/** The collections the account seeders fill, written out (a change to the seeded kinds shows here). */
export const SEEDED_COLLECTIONS: readonly CollectionName[] = [
  'customers',
  'forms',
  'inboxes',
  'messages',
  'experiences',
  'price_variants',
  'grants',
  'discounts',
  'event_sessions',
  'ad_destinations',
];

/** The store of `accountId` in `app`'s world; throws when there is none. */
export function storeOf(app: MockApp, accountId: string): AccountStore {
  const store = app.sandbox.world.store.forAccount(accountId);
  if (!store) throw new Error(`no account ${accountId}`);
  return store;
}
