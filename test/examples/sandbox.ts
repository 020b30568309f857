/**
 * What each test file of a client project does first: connect to the sandbox the globalSetup
 * started, and create its own tenant, so files running in parallel workers never share an account,
 * a key, a rate-limit counter or a scenario.
 */
import { beforeAll, inject } from 'vitest';
import { connectToMock } from '../../src/vitest.js';
import { CommerceClient, type ClientOptions } from './client.js';

export const mock = connectToMock(inject('creatorCommerceMock'));

export interface Tenant {
  accountId: string;
  apiKeyId: string;
  token: string;
  /** A client of this tenant; `sleep` is recorded instead of waited (see `waits`). */
  client(options?: Partial<ClientOptions>): CommerceClient;
  /** Every wait the clients asked for, in ms. */
  waits: number[];
}

/** Registers a `beforeAll` that creates this file's account; use the returned object in tests. */
export function useTenant(plan: 'free' | 'paid' = 'free'): Tenant {
  const tenant = { waits: [] as number[] } as Tenant;
  beforeAll(async () => {
    const { account, api_key } = await mock.admin.accounts.create({ plan });
    Object.assign(tenant, {
      accountId: account.id,
      apiKeyId: api_key.id,
      token: api_key.token,
      client: (options: Partial<ClientOptions> = {}) =>
        new CommerceClient({
          baseUrl: mock.apiUrl,
          apiKey: api_key.token,
          sleep: (ms) => {
            tenant.waits.push(ms);
            return Promise.resolve();
          },
          ...options,
        }),
    });
  });
  return tenant;
}
