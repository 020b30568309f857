/**
 * The account lookup every admin route shares, and the account's state as `GET /__admin/accounts/{id}`
 * answers it. Apart from the route declarations, so that the admin API's types (api-types.ts) can
 * name the state's type without importing any route.
 */
import { MESSAGES } from '../errors/messages.js';
import { ApiError } from '../errors/api-error.js';
import type { SandboxContext } from '../http/context.js';
import { yieldTurn } from '../http/large-body-lane.js';
import { jobSummary, type JobSummary } from '../resources/jobs/admin-summary.js';
import { accountView } from '../sandbox/lifecycle.js';
import type { World } from '../sandbox/world.js';
import { recordBytes } from '../store/record-meter.js';
import { COLLECTION_NAMES, type CollectionName, type CollectionRecords } from '../store/records.js';
import type { AccountStore } from '../store/store.js';

/** The account, its jobs brought up to its clock; a 404 naming `param` when there is none. */
export function accountOr404(ctx: SandboxContext, id: string, param = 'id'): AccountStore {
  const account = ctx.sandbox.world.store.forAccount(id);
  if (!account) throw new ApiError('resource_missing', { param, message: MESSAGES.noSuchAccount(id) });
  // On the account's own clock when it has one (contract §4.1); admin views show credits, and credits follow the clock.
  ctx.sandbox.world.timeOf(id).services.settleJobs(account);
  return account;
}

/**
 * `accountOr404` for a route that reads the account's records: its seeded records are derived first,
 * in slices with a turn between two (src/store/store.ts `prepare`), as before a /v1 operation that
 * reads them, so a fresh account's state or snapshot does not hold every other tenant's request
 * for a whole derivation. The account is the one found when the request came: reset or deleted
 * meanwhile, the request answers from it, as any request answers from what it captured.
 */
export async function derivedAccountOr404(ctx: SandboxContext, id: string, param = 'id'): Promise<AccountStore> {
  const world = ctx.sandbox.world;
  const account = world.store.forAccount(id);
  if (!account) throw new ApiError('resource_missing', { param, message: MESSAGES.noSuchAccount(id) });
  // The account's time as the request found it: reset or deleted meanwhile, the captured store is
  // settled on its own clock, not on its next life's or the sandbox's.
  const time = world.timeOf(id);
  await account.prepare(yieldTurn);
  time.services.settleJobs(account);
  return account;
}

export type AccountLookup = typeof accountOr404;

/**
 * How much of each collection the state shows (docs/admin-api.md "Account state"): its oldest
 * STATE_RECORDS_PER_COLLECTION records, and, every collection together, records of at most
 * STATE_RECORD_BYTES bytes of JSON. An account that holds less shows everything, as contract §3.2
 * says; a larger one shows a head, with its counts and the listing that pages through the rest.
 */
export const STATE_RECORDS_PER_COLLECTION = 100;
export const STATE_RECORD_BYTES = 4 * 1024 * 1024;

/** What the state shows of one collection: how many it holds, how many are shown, and where the rest are listed. */
export interface CollectionSummary {
  count: number;
  shown: number;
  /** `GET /__admin/accounts/{id}/records/{collection}`: every record, newest first, page by page. */
  url: string;
}

/** A collection as the state shows it: jobs summarized (a crawl's pages are read through `GET /v1/jobs/{id}`). */
type Shown<K extends CollectionName> = K extends 'jobs' ? JobSummary : CollectionRecords[K];

export type StateCollections = { [K in CollectionName]: Shown<K>[] };

/** A record as the admin views show it: a job summarized, anything else as stored. */
export function shownRecord<K extends CollectionName>(name: K, record: CollectionRecords[K]): Shown<K> {
  return (name === 'jobs' ? jobSummary(record as CollectionRecords['jobs']) : record) as Shown<K>;
}

/** What `shownWithin` took of some records: their views, the bytes those weigh, and whether it stopped before the end. */
export interface ShownWithin<K extends CollectionName> {
  views: Shown<K>[];
  bytes: number;
  cut: boolean;
}

/**
 * The views of `records`, in order, until the next would pass `room` bytes of JSON: how an admin
 * answer bounds its size. `atLeastOne`: the first is taken whatever it weighs (a record is at most
 * 1 MiB), so a page is never empty while records remain. `weighed`: what the store counted a record
 * as when it was last written, 0 when it never weighed it (`Collection.bytes`).
 */
export function shownWithin<K extends CollectionName>(
  name: K,
  records: Iterable<CollectionRecords[K]>,
  room: number,
  atLeastOne = false,
  weighed: (id: string) => number = () => 0,
): ShownWithin<K> {
  const views: Shown<K>[] = [];
  let bytes = 0;
  for (const record of records) {
    const view = shownRecord(name, record);
    // Any record but a job is shown as it is stored: the weight the record budget keeps for it is
    // its JSON's (every write goes through the collection, which weighs it), and weighing it again
    // walked every string of it on each read (~1 ms a megabyte). A job is shown summarized, a
    // record of a collection the account never wrote was never weighed: those are weighed here.
    const size = (name === 'jobs' ? 0 : weighed(record.id)) || recordBytes(view);
    if (bytes + size > room && !(atLeastOne && views.length === 0)) return { views, bytes, cut: true };
    bytes += size;
    views.push(view);
  }
  return { views, bytes, cut: false };
}

/** The admin path that lists one collection of an account. */
export function recordsPath(accountId: string, name: CollectionName): string {
  return `/__admin/accounts/${encodeURIComponent(accountId)}/records/${name}`;
}

/**
 * `GET /__admin/accounts/{id}`: the account, each collection (its head when large), their counts,
 * the credits, and what its records weigh against its record budget. Bounded whatever the account
 * holds: it reads each collection only as far as it shows, at most STATE_RECORDS_PER_COLLECTION
 * records of each and STATE_RECORD_BYTES of all together.
 */
export function accountState(world: World, account: AccountStore) {
  const state = {} as StateCollections;
  const collections = {} as Record<CollectionName, CollectionSummary>;
  let room = STATE_RECORD_BYTES;
  for (const name of COLLECTION_NAMES) {
    const collection = account.collection(name);
    // A record that does not fit ends its collection's head; smaller collections after it still show.
    const shown = shownWithin(name, collection.head(STATE_RECORDS_PER_COLLECTION), room, false, (id) => collection.bytes(id));
    room -= shown.bytes;
    (state as Record<CollectionName, unknown[]>)[name] = shown.views;
    collections[name] = { count: collection.size, shown: shown.views.length, url: recordsPath(account.id, name) };
  }
  return {
    account: accountView(world, account),
    state: { ...state, credits: account.account.credits },
    collections,
    record_bytes: account.recordBytes,
    record_budget: account.recordBudget,
  };
}
