/**
 * A ready-made vitest globalSetup: one sandbox for the whole run, its address handed to every test
 * worker through vitest's `provide`/`inject`.
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ['creator-commerce-mock/vitest'] } });
 *
 *   // in a test
 *   import { inject } from 'vitest';
 *   import { connectToMock } from 'creator-commerce-mock/vitest';
 *   const mock = connectToMock(inject('creatorCommerceMock'));
 *   const { api_key } = await mock.admin.accounts.create({ plan: 'free' }); // one tenant per worker
 *   // or, created before this file's tests and deleted after them, on a clock of its own:
 *   const tenant = useTenant(mock, { clock: 'frozen' });   // then tenant.token, tenant.clock.advance(60)
 *
 * With options: `globalSetup: ['./test/mock-setup.ts']` where that file does
 * `export default mockServerSetup({ seed: 7, clock: 'frozen' })`.
 */
import type {} from 'vitest';
import { AdminClient } from './admin/client.js';
import type { MockOptions } from './config/options.js';
import { startMockServer } from './server.js';

export { useTenant, type UseTenantOptions } from './vitest-tenant.js';
export { expectNoFindings, describeFindings, FindingsError, type FindingsSource } from './findings/expect-no-findings.js';
export type { Tenant, TenantClock, AccountClockState, AccountClockSetting } from './admin/tenant-handle.js';

/** What the setup provides under the key `creatorCommerceMock`. */
export interface ProvidedMock {
  url: string;
  apiUrl: string;
  adminToken: string | null;
}

export const PROVIDE_KEY = 'creatorCommerceMock';

// Types what `inject('creatorCommerceMock')` returns in a client's tests (type-only: vitest is not
// imported at run time, and projects that never import this entry point never see it).
declare module 'vitest' {
  export interface ProvidedContext {
    creatorCommerceMock: ProvidedMock;
  }
}

/** The part of vitest's TestProject the setup uses (structural, so vitest stays an optional peer). */
export interface ProvidingProject {
  provide(key: string, value: unknown): void;
}

export function mockServerSetup(options: MockOptions = {}) {
  return async function setup(project: ProvidingProject): Promise<() => Promise<void>> {
    const mock = await startMockServer(options);
    const provided: ProvidedMock = { url: mock.url, apiUrl: mock.apiUrl, adminToken: options.adminToken ?? null };
    project.provide(PROVIDE_KEY, provided);
    return async () => {
      await mock.close();
    };
  };
}

/** In a test worker: the addresses and a typed admin client of the sandbox the setup started. */
export function connectToMock(provided: unknown): ProvidedMock & { admin: AdminClient } {
  const value = provided as ProvidedMock | undefined;
  if (!value?.url) throw new Error(`No sandbox provided under '${PROVIDE_KEY}': add 'creator-commerce-mock/vitest' to globalSetup.`);
  return { ...value, admin: new AdminClient(value.url, value.adminToken ?? undefined) };
}

export default mockServerSetup();
