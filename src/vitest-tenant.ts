/**
 * `useTenant()`: one account per test file, created before its tests and deleted after them
 * (contract §4.1), so files that vitest runs in parallel workers never share an account, a key, a
 * rate-limit counter, a scenario or a clock.
 *
 * vitest is imported when this module loads and only if it is installed: the package's
 * `creator-commerce-mock/vitest` entry point must still load in a project without it (the
 * globalSetup part needs nothing of vitest), and hooks must be registered synchronously, when the
 * test file is collected, so a lazy import at the call would come too late.
 */
import type { AdminClient, CreateAccountInput } from './admin/client.js';
import type { Tenant } from './admin/tenant-handle.js';

type Hooks = Pick<typeof import('vitest'), 'beforeAll' | 'afterAll' | 'beforeEach'>;
const hooks: Hooks | undefined = await import('vitest').then(
  (vitest) => vitest,
  () => undefined,
);

/** What `POST /__admin/accounts` takes (`plan`, `clock`, `fixture`, `template`, `pinned`, `name`), and: */
export interface UseTenantOptions extends CreateAccountInput {
  /** Reset the account before each test (fast: no new account, same token). Default false. */
  resetBeforeEach?: boolean;
}

/**
 * Registers `beforeAll` (create), optional `beforeEach` (reset) and `afterAll` (delete) hooks, and
 * returns the tenant, usable inside tests and hooks: `tenant.token`, `tenant.clock.advance(60)`.
 */
export function useTenant(mock: { admin: AdminClient }, options: UseTenantOptions = {}): Tenant {
  if (!hooks) throw new Error('useTenant() registers vitest hooks: call it in a vitest test file.');
  const { resetBeforeEach = false, ...input } = options;
  let current: Tenant | undefined;
  hooks.beforeAll(async () => {
    current = await mock.admin.accounts.create(input);
  });
  if (resetBeforeEach) {
    hooks.beforeEach(async () => {
      await current?.reset();
    });
  }
  hooks.afterAll(async () => {
    // A test may have deleted it already; that is what this hook was going to do.
    await current?.delete().catch((error: { status?: number }) => {
      if (error.status !== 404) throw error;
    });
    current = undefined;
  });
  return new Proxy({} as Tenant, {
    get(_, property) {
      if (!current)
        throw new Error(
          `useTenant(): the tenant exists inside tests and hooks (it is created in beforeAll); read '${String(property)}' there.`,
        );
      return Reflect.get(current, property) as unknown;
    },
  });
}
