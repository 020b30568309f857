/**
 * `GET /__admin/accounts/{id}/snapshot` (contract §5.3): the account as a snapshot object, and its
 * canonical text, refused when it could not be sent back (over the admin body limit).
 */
import type { AccountStore } from '../store/store.js';
import type { World } from '../sandbox/world.js';
import { boundedJson } from './bounded-json.js';
import { RECORD_COLLECTIONS, SNAPSHOT_VERSION, type AccountSnapshot } from './shape.js';

/** The snapshot of `account` as it stands (its jobs should be settled first, as every admin view does). */
export function takeSnapshot(world: World, account: AccountStore): AccountSnapshot {
  const { id, name, plan, created_at, credits } = account.account;
  const { clock } = world.timeOf(id);
  const keys = account
    .collection('api_keys')
    .values()
    .map((key) => ({ ...key, token: world.store.tokenOf(key.id) ?? '' }));
  const records = Object.fromEntries(RECORD_COLLECTIONS.map((name) => [name, account.collection(name).values()]));
  return {
    object: 'account_snapshot',
    version: SNAPSHOT_VERSION,
    account: { id, name, plan, created_at },
    credits: { balance: credits.balance, used: credits.used },
    clock: { now: new Date(clock.now()).toISOString(), mode: clock.mode, shared: !world.tenants.get(id)?.own },
    api_keys: keys,
    records: records as AccountSnapshot['records'],
    jobs: account.collection('jobs').values(),
    webhook_endpoints: world.webhooks.endpoints(id),
  };
}

/** The snapshot's text, members in the order they hold; `OverBudget` past `budget` bytes. */
export function snapshotText(snapshot: AccountSnapshot, budget: number): string {
  return boundedJson(snapshot, budget);
}
