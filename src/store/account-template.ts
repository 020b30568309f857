/**
 * Fills a new account's collections with realistic, seeded data, so every documented endpoint has
 * records to act on. Each resource module contributes a seeder for the collections it owns; they
 * run in the order listed here (later ones may reference records made by earlier ones).
 */
import type { Faker } from '@faker-js/faker';
import { seededFaker, type IdGenerator } from '../random.js';
import type { AccountTemplate } from './fixture-file.js';
import type { PinnedRecords } from './pinned-records.js';
import type { AccountStore } from './store.js';

export interface SeedContext {
  store: AccountStore;
  faker: Faker;
  ids: IdGenerator;
  /** Virtual now, in ms; generated timestamps lie before it. */
  now: number;
  /** How many records of a kind to make: the template's count, or `fallback`. */
  count: (kind: string, fallback: number) => number;
  /** Records of the fixture account with fixed ids and slugs, made first (empty for other accounts). */
  pinned: PinnedRecords;
}

export type AccountSeeder = (context: SeedContext) => void;

const seeders: AccountSeeder[] = [];

/** Resource modules register their seeders at import time (see src/resources/index.ts). */
export function registerSeeder(seeder: AccountSeeder): void {
  seeders.push(seeder);
}

export function populateAccount(
  store: AccountStore,
  options: { template: AccountTemplate; ids: IdGenerator; now: number; seed: string; pinned?: PinnedRecords | undefined },
): void {
  // Seeded per account: an account's data does not depend on what other accounts hold.
  const faker = seededFaker(options.seed, store.id);
  const context: SeedContext = {
    store,
    faker,
    ids: options.ids,
    now: options.now,
    count: (kind, fallback) => options.template.counts[kind] ?? fallback,
    pinned: options.pinned ?? {},
  };
  for (const seeder of seeders) seeder(context);
}
