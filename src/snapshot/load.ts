/**
 * `POST /__admin/accounts {"snapshot"}` (contract §5.3): the account recreated from a snapshot, with
 * its id, keys and tokens, records, jobs, credits and webhook endpoints, on the clock asked for.
 *
 * The records are the account's seeded records from then on: derived from the snapshot when first
 * read (src/store/store.ts), as a template account's are derived from its seed, and again after an
 * account reset. The kinds no template seeds (jobs, form submissions, deliveries, conversions) are
 * the account's own from the start; its birth's `restore` puts them back, with its jobs and
 * endpoints, on each account reset (contract §4.1: the state right after creation is the snapshot).
 *
 * Every id and secret in the snapshot is reserved in this world's id streams: the snapshot was drawn
 * by the same seeded streams in the process that took it, so without that, the next account made
 * here could get the loaded account's id, or a new record one of its record ids (the loaded account's
 * own streams, src/sandbox/record-ids.ts, start where those that drew the snapshot did).
 */
import { jobCountedBytes } from '../jobs/create.js';
import { isTerminal } from '../jobs/derive.js';
import { recordBytes } from '../store/record-meter.js';
import type { CollectionName, CollectionRecords } from '../store/records.js';
import type { AccountStore, SeedRecords } from '../store/store.js';
import type { ClockBirth } from '../sandbox/account-clock.js';
import { clockFromBirth, ownTimeDomain, takeBirth, Tenant } from '../sandbox/tenant.js';
import type { World } from '../sandbox/world.js';
import { NO_ORIGIN } from '../webhooks/twists.js';
import { SnapshotProblem } from './decode.js';
import { RECORD_COLLECTIONS, type AccountSnapshot } from './shape.js';

/** Thrown when something of the snapshot already exists in this sandbox: `path` names the member. */
export class SnapshotConflict extends SnapshotProblem {}

/** The ids and secrets a snapshot holds: every string that has the shape of one the sandbox draws. */
const DRAWN = /^(?:[a-z]+_[0-9A-Za-z]{24}|cc_test_[0-9A-Za-z]{32}|whsec_[0-9A-Za-z+/=]{16,})$/;

function drawnValues(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    if (DRAWN.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) drawnValues(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) drawnValues(item, into);
  }
  return into;
}

/** 409 before anything is made: the account id, a key id or token, or an endpoint id exists here. */
function checkConflicts(world: World, snapshot: AccountSnapshot): void {
  if (world.store.forAccount(snapshot.account.id)) {
    throw new SnapshotConflict('snapshot.account.id', `an account ${snapshot.account.id} exists in this sandbox`);
  }
  snapshot.api_keys.forEach((key, index) => {
    if (world.store.findKeyById(key.id) || world.store.tokenOf(key.id) !== undefined) {
      throw new SnapshotConflict(`snapshot.api_keys.${index}.id`, `an API key ${key.id} exists in this sandbox`);
    }
    if (world.store.findByToken(key.token)) {
      throw new SnapshotConflict(`snapshot.api_keys.${index}.token`, `an API key with this token exists in this sandbox`);
    }
  });
  snapshot.webhook_endpoints.forEach((endpoint, index) => {
    if (world.webhooks.endpoint(endpoint.id)) {
      throw new SnapshotConflict(`snapshot.webhook_endpoints.${index}.id`, `a webhook endpoint ${endpoint.id} exists in this sandbox`);
    }
  });
}

type AnyRecord = CollectionRecords[CollectionName];

/** Fills the collections a template seeds from the snapshot: a pure function of it, so derived alike every time. */
function seedFrom(snapshot: AccountSnapshot): SeedRecords {
  const lists = snapshot.records;
  // A step per collection: the store may run them in slices (src/store/store.ts).
  return function* seedFromSnapshot(store) {
    for (const name of RECORD_COLLECTIONS) {
      if (lists[name].length === 0) continue;
      const collection = store.write(name) as unknown as { insert(record: AnyRecord): void };
      for (const record of structuredClone(lists[name]) as AnyRecord[]) collection.insert(record);
      yield;
    }
  };
}

/**
 * What the account owns from its creation beside its seeded records and keys, put in place at the
 * load and again by each reset (the birth's `restore`): the records of the kinds no template seeds,
 * its jobs, and its endpoints (one deleted since comes back; one made since stays, as on any account
 * reset). Unfinished jobs end on the account's clock as any other: the hub raises their events then.
 */
function restoreOwn(world: World, account: AccountStore, snapshot: AccountSnapshot): void {
  // The kinds no template seeds are never derived (src/store/store.ts): the account owns them at once.
  for (const name of RECORD_COLLECTIONS) {
    const records = snapshot.records[name];
    if (records.length === 0 || account.collection(name).size > 0) continue;
    // Counted, not asked: the load weighed them all first (`checkRecordBudget`), and a reset puts back what was born.
    const collection = account.write(name) as unknown as { insert(record: AnyRecord, param: null): void };
    for (const record of structuredClone(records) as AnyRecord[]) collection.insert(record, null);
  }
  const jobs = account.write('jobs');
  // An unfinished job is counted as it will weigh once ended, as when it was made.
  for (const job of structuredClone(snapshot.jobs)) jobs.insert(job, null, jobCountedBytes(job));
  for (const endpoint of structuredClone(snapshot.webhook_endpoints)) {
    if (!world.webhooks.endpoint(endpoint.id)) world.webhooks.restoreEndpoint(endpoint);
  }
  const unfinished = jobs.filter((job) => !isTerminal(job.status));
  if (unfinished.length > 0) world.webhooks.publish(account, { events: [], jobs: unfinished, origin: NO_ORIGIN });
}

/** Thrown when the snapshot's records weigh more than this sandbox's record budget: `path` names the record that passes it. */
export class SnapshotOverBudget extends SnapshotProblem {}

/**
 * Refuses a snapshot whose records would pass the record budget (src/store/record-meter.ts) before
 * anything is made, naming the first record at which they do, in the order the account holds them.
 */
function checkRecordBudget(budget: number, snapshot: AccountSnapshot): void {
  let bytes = 0;
  const weigh = (record: unknown, path: string, counted = recordBytes(record)): void => {
    bytes += counted;
    if (bytes > budget) {
      throw new SnapshotOverBudget(
        path,
        `the snapshot's records weigh more than this sandbox's record budget of ${budget} bytes (--record-budget)`,
      );
    }
  };
  // A key is stored without its token.
  snapshot.api_keys.forEach(({ token: _token, ...key }, index) => weigh(key, `snapshot.api_keys.${index}`));
  for (const name of RECORD_COLLECTIONS)
    snapshot.records[name].forEach((record, index) => weigh(record, `snapshot.records.${name}.${index}`));
  snapshot.jobs.forEach((job, index) => weigh(job, `snapshot.jobs.${index}`, jobCountedBytes(job)));
}

/** The account, made from a checked snapshot (src/snapshot/decode.ts) on `clock`; SnapshotConflict when it collides. */
export function loadSnapshot(world: World, snapshot: AccountSnapshot, clock: ClockBirth): AccountStore {
  checkConflicts(world, snapshot);
  checkRecordBudget(world.store.recordBudget, snapshot);
  const drawn = drawnValues(snapshot, new Set());
  // The sandbox's stream (account ids) and every account's own (record ids and tokens: this account's first of all).
  world.ids.reserve(drawn);
  world.recordIds.reserve(drawn);
  const { id, name, plan, created_at } = snapshot.account;
  const tenant = new Tenant(clock);
  const ownClock = clockFromBirth(clock, world.realTime);
  if (ownClock) tenant.own = ownTimeDomain(world, ownClock, world.options.rateLimit);
  world.tenants.set(id, tenant);
  const seedRecords = seedFrom(snapshot);
  const account = world.store.addAccount({ id, object: 'account', name, plan, created_at, credits: { ...snapshot.credits } }, seedRecords);
  const restore = (born: AccountStore): void => restoreOwn(world, born, snapshot);
  tenant.birth = { ...takeBirth(account, seedRecords), restore };
  for (const { token, ...key } of structuredClone(snapshot.api_keys)) world.store.addApiKey(account, key, token);
  world.sealBirth(account);
  restore(account);
  return account;
}
