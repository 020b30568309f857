/**
 * Account reset, delete and own clocks (contract §4.1): one account changes, every other account,
 * the sandbox clock and the world's id streams stay as they were.
 */
import { VirtualClock } from '../clock/virtual-clock.js';
import { coverageOf } from '../coverage/coverage-book.js';
import { apiKeySubject } from '../protocol/rate-limit.js';
import type { AccountStore } from '../store/store.js';
import type { World } from './world.js';
import type { AccountClockView } from './account-clock.js';
import { clockFromBirth, ownTimeDomain, type Tenant } from './tenant.js';
import type { TimeDomain } from './time-domain.js';

function keyIdsOf(account: AccountStore): Set<string> {
  return new Set(
    account
      .collection('api_keys')
      .values()
      .map((key) => key.id),
  );
}

/** Everything the world holds about an account outside its records: memory, counters, journal, scenarios. */
function forgetActivity(world: World, account: AccountStore): void {
  const keyIds = keyIdsOf(account);
  world.idempotency.forget(account.id);
  world.journal.forget(account.id);
  coverageOf(world).forget(account.id);
  world.scenarios.retireScoped(account.id, keyIds);
  world.scenarios.restartChance(account.id);
  // An own clock's limiter goes with its domain; on the shared one only this account's keys are dropped.
  world.rateLimiter.forget([...keyIds].map(apiKeySubject));
}

/** Back to the state right after creation; `undefined` for an unknown account. */
export function resetAccount(world: World, id: string): AccountStore | undefined {
  const tenant = world.tenants.get(id);
  const old = world.store.forAccount(id);
  if (!tenant?.birth || !old) return undefined;
  forgetActivity(world, old);
  world.webhooks.resetAccount(id);
  const { birth } = tenant;
  // The seeded records come back by being derived again when first needed (src/store/store.ts).
  const fresh = world.store.replaceAccount(structuredClone(birth.account), birth.seedRecords);
  const tokens = new Map(birth.tokens);
  // Oldest first, as taken: re-inserted in the same order, so lists come out in the same order.
  for (const key of structuredClone(birth.keys)) world.store.addApiKey(fresh, key, tokens.get(key.id) ?? '');
  const clock = clockFromBirth(tenant.clockBirth, world.realTime);
  tenant.own = clock ? ownTimeDomain(world, clock, world.options.rateLimit) : undefined;
  return fresh;
}

/** The account and everything of it gone; false for an unknown account. */
export function deleteAccount(world: World, id: string): boolean {
  const account = world.store.forAccount(id);
  if (!account) return false;
  forgetActivity(world, account);
  world.webhooks.deleteAccount(id);
  world.store.removeAccount(id);
  world.tenants.delete(id);
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
