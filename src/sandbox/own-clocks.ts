/**
 * Own clocks in a world's lifecycle (contract §4.1): an account reset puts its own clock back as it
 * was asked for at creation (a frozen one at its creation instant, a running one restarted from it),
 * with a fresh rate limiter; an account on the shared clock stays on it. On delete the account's
 * tenant, own clock included, goes with its records (src/sandbox/lifecycle.ts).
 */
import { clockFromBirth, ownTimeDomain } from './tenant.js';
import type { World } from './world.js';

export const ownClocksModule = {
  name: 'own-clocks',
  create(world: World) {
    return {
      accountReset(accountId: string): void {
        const tenant = world.tenants.get(accountId);
        if (!tenant) return;
        const clock = clockFromBirth(tenant.clockBirth, world.realTime);
        tenant.own = clock ? ownTimeDomain(world, clock, world.options.rateLimit) : undefined;
      },
    };
  },
};
