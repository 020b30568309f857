/**
 * What the world keeps per account beyond its records (contract §4.1): its time domain while it has
 * a clock of its own, and its birth, the state right after creation that `reset` restores.
 *
 * The birth holds no record but the keys: the seeded records are a pure function of (seed,
 * account, template, creation instant), derived again when first needed after a reset
 * (src/store/store.ts), so a birth costs the account record and its first keys, and restoring it
 * copies only those. Nothing is drawn from the world's id or secret streams, so a reset cannot shift
 * the ids other accounts get next (same seed + same requests = same bytes). Restoring clones the
 * copies again, since records are mutated in place by the API.
 */
import { VirtualClock, type RealTimeSource } from '../clock/virtual-clock.js';
import { RateLimiter } from '../protocol/rate-limiter.js';
import type { RateLimitQuotas } from '../config/options.js';
import type { AccountRecord, ApiKeyRecord } from '../store/records.js';
import type { AccountStore, SeedRecords } from '../store/store.js';
import type { ClockBirth } from './account-clock.js';
import { timeDomain, type DomainWorld, type TimeDomain } from './time-domain.js';

export interface AccountBirth {
  readonly account: AccountRecord;
  /** Derives the seeded records; undefined for an account made without them (`populate: false`). */
  readonly seedRecords: SeedRecords | undefined;
  /** The keys the account was created with, oldest first. */
  readonly keys: readonly ApiKeyRecord[];
  /** Key id -> token of the keys the account was created with: the same tokens work after a reset. */
  readonly tokens: ReadonlyArray<readonly [keyId: string, token: string]>;
  /**
   * What else the account was born with, put back after its records and keys on reset: an account
   * loaded from a snapshot (src/snapshot/load.ts) owns records no seed derives (form submissions,
   * jobs), and endpoints, from its creation on.
   */
  readonly restore?: ((account: AccountStore) => void) | undefined;
}

export class Tenant {
  /** Undefined while the account shares the sandbox clock. */
  own: TimeDomain | undefined;
  /** Taken by `World.createAccount`; `World.sealBirth` adds the first keys. */
  birth: AccountBirth | undefined;

  constructor(readonly clockBirth: ClockBirth) {}
}

/** A time domain of its own: a VirtualClock and a rate limiter whose windows follow it. */
export function ownTimeDomain(
  world: DomainWorld,
  clock: VirtualClock,
  quotas: RateLimitQuotas,
  limiter = new RateLimiter(quotas),
): TimeDomain {
  return timeDomain(world, clock, limiter);
}

/** The own clock a birth describes, started now (a `running` one restarts from its start instant). */
export function clockFromBirth(birth: ClockBirth, realTime: RealTimeSource): VirtualClock | undefined {
  return birth.mode === undefined ? undefined : new VirtualClock(birth.start, birth.mode, realTime);
}

export function takeBirth(account: AccountStore, seedRecords: SeedRecords | undefined): AccountBirth {
  return { account: structuredClone(account.account), seedRecords, keys: [], tokens: [] };
}

/**
 * The birth with the account's keys as they are now: the first keys are made right after the
 * account (its `Default` key, a fixture's keys), and only they changed since `takeBirth`.
 */
export function withKeys(birth: AccountBirth, account: AccountStore, tokenOf: (keyId: string) => string | undefined): AccountBirth {
  const keys = structuredClone(account.collection('api_keys').values());
  return { ...birth, keys, tokens: keys.map((key) => [key.id, tokenOf(key.id) ?? ''] as const) };
}
