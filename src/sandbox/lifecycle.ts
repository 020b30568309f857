/**
 * Account reset, delete and own clocks (contract §4.1): one account changes, every other account,
 * the sandbox clock and the world's id streams stay as they were. A reset leaves the account's own
 * id streams going (src/sandbox/record-ids.ts: a key's token is never drawn twice); a delete frees them. What the world keeps about an
 * account beside its records (journal, idempotency, rate limits, scenarios, webhooks, its own clock)
 * is each world module's to forget (src/sandbox/world-module.ts); this module restores or removes
 * the records and keys.
 */
import { VirtualClock } from '../clock/virtual-clock.js';
import { apiKeySubject } from '../protocol/rate-limit.js';
import type { AccountStore } from '../store/store.js';
import type { World } from './world.js';
import type { AccountClockView } from './account-clock.js';
import { ownTimeDomain, type Tenant } from './tenant.js';
import type { TimeDomain } from './time-domain.js';

function keyIdsOf(account: AccountStore): Set<string> {
  return new Set(
    account
      .collection('api_keys')
      .values()
      .map((key) => key.id),
  );
}

/** Back to the state right after creation; `undefined` for an unknown account. */
export function resetAccount(world: World, id: string): AccountStore | undefined {
  const tenant = world.tenants.get(id);
  const old = world.store.forAccount(id);
  if (!tenant?.birth || !old) return undefined;
  // Every module forgets what it keeps of the account (src/sandbox/modules.ts), then its records come back.
  const keyIds = keyIdsOf(old);
  for (const module of world.modules) module.accountReset?.(id, keyIds);
  const { birth } = tenant;
  // The seeded records come back by being derived again when first needed (src/store/store.ts).
  const fresh = world.store.replaceAccount(structuredClone(birth.account), birth.seedRecords);
  const tokens = new Map(birth.tokens);
  // Oldest first, as taken: re-inserted in the same order, so lists come out in the same order.
  for (const key of structuredClone(birth.keys)) world.store.addApiKey(fresh, key, tokens.get(key.id) ?? '');
  birth.restore?.(fresh);
  return fresh;
}

/** The account and everything of it gone; false for an unknown account. */
export function deleteAccount(world: World, id: string): boolean {
  const account = world.store.forAccount(id);
  if (!account) return false;
  const keyIds = keyIdsOf(account);
  for (const module of world.modules) module.accountDeleted?.(id, keyIds);
  world.store.removeAccount(id);
  world.tenants.delete(id);
  world.recordIds.forget(id);
  return true;
}

/**
 * The account's own clock, made from the sandbox clock (its instant and mode) the first time an
 * account on the shared clock is given one. Its keys' counters of the current window come along.
 */
export function ownClockOf(world: World, account: AccountStore, tenant: Tenant): TimeDomain {
  if (tenant.own) return tenant.own;
  const clock = new VirtualClock(world.clock.now(), world.clock.mode, world.realTime);
  const own = ownTimeDomain(world, clock, world.options.rateLimit);
  world.rateLimiter.transfer([...keyIdsOf(account)].map(apiKeySubject), own.rateLimiter);
  tenant.own = own;
  return own;
}

export function clockView(world: World, accountId: string): AccountClockView {
  const tenant = world.tenants.get(accountId);
  const { clock } = world.timeOf(accountId);
  return { now: new Date(clock.now()).toISOString(), mode: clock.mode, shared: !tenant?.own };
}

/** The `account` object of admin answers: the record and its clock. */
export function accountView(world: World, account: AccountStore) {
  return { ...account.account, clock: clockView(world, account.id) };
}
