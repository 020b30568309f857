/**
 * An account's seeded records are derived once per life in the cache: a first write copies its
 * collection from the cached derivation, and the record meter weighs the cached one. The derivation
 * runs in steps (slices, with other work between them) and draws from a Faker of its own, so the
 * records are the same bytes whether it runs in one go or in steps interleaved with other
 * derivations and crawl pages.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { ownSeededFaker, seededFaker } from '../../src/random.js';
import { thawedCopy } from '../../src/store/derived-cache.js';
import { recordBytes } from '../../src/store/record-meter.js';
import { AccountStore, type SeedRecords } from '../../src/store/store.js';
import { client, makeApp } from '../support/harness.js';
import { newTenant } from '../support/resources.js';
import { SEEDED_COLLECTIONS as SEEDED, storeOf } from '../support/stores.js';

function seedRecordsOf(app: MockApp, accountId: string): SeedRecords {
  const seed = app.sandbox.world.tenants.get(accountId)?.birth?.seedRecords;
  if (!seed) throw new Error(`no seeded records for ${accountId}`);
  return seed;
}

/** A derivation made the way every derivation was made before the cache was copied: fresh, in one go, into a scratch store. */
function freshDerivation(app: MockApp, accountId: string): AccountStore {
  const store = storeOf(app, accountId);
  const scratch = new AccountStore(store.account);
  const steps = seedRecordsOf(app, accountId)(scratch);
  while (steps.next().done !== true);
  return scratch;
}

describe('a first write copies its collection from the cached derivation', () => {
  it('every seeded collection: the copy is the fresh derivation, byte for byte, in order, unfrozen, with the same prototypes', async () => {
    const app = makeApp({ seed: 'copied' });
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    const fresh = freshDerivation(app, tenant.accountId);
    for (const name of SEEDED) {
      const cached = store.collection(name).values();
      const written = store.write(name).values();
      const derived = fresh.collection(name).values();
      expect(derived.length, name).toBeGreaterThan(0);
      expect(JSON.stringify(written), name).toBe(JSON.stringify(derived));
      expect(written, name).toStrictEqual(derived);
      // Copies: the cached records stay frozen and untouched, the account's own can change.
      expect(Object.isFrozen(cached[0]), name).toBe(true);
      expect(Object.isFrozen(written[0]), name).toBe(false);
      expect(written[0], name).not.toBe(cached[0]);
    }
    expect(store.ownedCollections.sort()).toEqual(['api_keys', ...SEEDED].sort());
  });

  it('later writes behave the same: order of inserts at tied instants, pages and cursors, deleted cursors, meter counts', async () => {
    const app = makeApp({ seed: 'copied-writes' });
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    const fresh = freshDerivation(app, tenant.accountId);
    // The fresh store weighs like a metered account: seeded records plus the key.
    const seededBytes = SEEDED.reduce(
      (sum, name) =>
        sum +
        fresh
          .collection(name)
          .values()
          .reduce((s, r) => s + recordBytes(r), 0),
      0,
    );
    const keyBytes = store
      .collection('api_keys')
      .values()
      .reduce((s, r) => s + recordBytes(r), 0);
    expect(store.recordBytes).toBe(seededBytes + keyBytes);

    const copy = store.write('messages');
    const reference = fresh.write('messages');
    const [oldest, second] = reference.values();
    // Two records at the instant of existing ones: ties are broken by insertion order in both.
    for (const collection of [copy, reference]) {
      collection.insert({ ...thawedCopy(oldest!), id: 'msg_tie_a' }, null);
      collection.insert({ ...thawedCopy(second!), id: 'msg_tie_b' }, null);
      collection.delete(second!.id);
    }
    expect(JSON.stringify(copy.values())).toBe(JSON.stringify(reference.values()));
    const pages = (collection: typeof copy) => [
      collection.page({ limit: 5 }),
      collection.page({ limit: 5, startingAfter: second!.id }),
      collection.page({ limit: 3, startingAfter: 'msg_tie_a' }),
      collection.page({ limit: 100, filter: (m) => m.direction === 'inbound' }),
    ];
    expect(JSON.stringify(pages(copy))).toBe(JSON.stringify(pages(reference)));
    // The meter counted the inserts and gave back the deleted record's bytes, as for the fresh one.
    const tieBytes = recordBytes(copy.get('msg_tie_a')) + recordBytes(copy.get('msg_tie_b'));
    expect(store.recordBytes).toBe(seededBytes + keyBytes + tieBytes - recordBytes(second));
  });

  it('one derivation per cache life: a read, a first write and the meter all use the one cached derivation', async () => {
    const app = makeApp({ seed: 'once' });
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    const seed = seedRecordsOf(app, tenant.accountId);
    let derivations = 0;
    const counting: SeedRecords = (scratch) => {
      derivations += 1;
      return seed(scratch);
    };
    const counted = new AccountStore(store.account, counting, 1024 ** 3);
    counted.collection('inboxes');
    counted.write('inboxes').update(counted.collection('inboxes').values()[0]!.id, (inbox) => (inbox.display_name = 'Renamed'));
    expect(counted.recordBytes).toBeGreaterThan(0);
    counted.write('messages');
    expect(derivations).toBe(1);
  });
});

describe('the derivation in steps', () => {
  it('a Faker of its own draws what the shared instance draws for the same seed', () => {
    const draws = (faker: ReturnType<typeof seededFaker>) => [faker.person.fullName(), faker.lorem.sentence(), faker.number.int(1000)];
    const own = draws(ownSeededFaker('seed', 'acct_x'));
    expect(own).toEqual(draws(seededFaker('seed', 'acct_x')));
  });

  it('steps interleaved with another account’s steps and with draws from the shared Faker (crawl pages) make the records of one go', async () => {
    const app = makeApp({ seed: 'stepped' });
    const [one, two] = [await newTenant(app), await newTenant(app)];
    const inOneGo = [freshDerivation(app, one.accountId), freshDerivation(app, two.accountId)];
    const scratches = [one, two].map((tenant) => new AccountStore(storeOf(app, tenant.accountId).account));
    const steps = [one, two].map((tenant, i) => seedRecordsOf(app, tenant.accountId)(scratches[i]!));
    const done = [false, false];
    let turns = 0;
    while (!done.every(Boolean)) {
      for (const i of [0, 1]) {
        if (done[i]) continue;
        done[i] = steps[i]!.next().done === true;
        // What a crawl page does between two steps: reseed the shared instance and draw.
        seededFaker('crawl', turns).lorem.paragraphs(3);
      }
      turns += 1;
    }
    // Yields between seeders and between inboxes: many steps.
    expect(turns).toBeGreaterThan(8);
    for (const i of [0, 1]) {
      for (const name of SEEDED) {
        expect(JSON.stringify(scratches[i]!.collection(name).values()), name).toBe(JSON.stringify(inOneGo[i]!.collection(name).values()));
      }
    }
  });

  it("one inbox's many messages take a step per thread, not one step for the inbox", async () => {
    const app = makeApp({ seed: 'threads' });
    const pausesWith = async (messages: number): Promise<number> => {
      const template = { credits: { free: 1000, paid: 1000 }, counts: { inboxes: 1, messages_per_inbox: messages } };
      const made = await client(app).post('/__admin/accounts').send({ plan: 'paid', template });
      expect(made.status, made.text).toBe(201);
      let pauses = 0;
      await storeOf(app, made.body.account.id as string).prepare(() => ((pauses += 1), Promise.resolve()), 0);
      return pauses;
    };
    // Threads hold one to four messages: 400 messages are at least 100 threads more than 4 messages.
    expect((await pausesWith(400)) - (await pausesWith(4))).toBeGreaterThanOrEqual(99);
  });

  it('prepare derives in slices, pausing between them, and caches what one go would have cached', async () => {
    const app = makeApp({ seed: 'sliced' });
    const tenant = await newTenant(app);
    const store = storeOf(app, tenant.accountId);
    let pausesBeforeCached = 0;
    // A slice of 0 ms pauses after every step (then once more before weighing what it cached).
    await store.prepare(() => {
      if (!store.derivedCached) pausesBeforeCached += 1;
      return Promise.resolve();
    }, 0);
    expect(pausesBeforeCached).toBeGreaterThan(8);
    expect(store.derivedCached).toBe(true);
    expect(store.prepare(() => Promise.resolve(), 0)).toBeUndefined();
    const fresh = freshDerivation(app, tenant.accountId);
    for (const name of SEEDED)
      expect(JSON.stringify(store.collection(name).values()), name).toBe(JSON.stringify(fresh.collection(name).values()));
    // Weighed in the slices too: the meter counts what one weighing of the whole derivation counts.
    const weighed = new AccountStore(store.account, seedRecordsOf(app, tenant.accountId)).seededBytes();
    const keyBytes = store
      .collection('api_keys')
      .values()
      .reduce((sum, key) => sum + recordBytes(key), 0);
    expect(store.recordBytes).toBe(weighed + keyBytes);
  });
});
