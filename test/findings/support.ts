/** A sandbox on loopback for the findings tests, and small helpers to drive it with plain fetch. */
import { afterAll, beforeAll } from 'vitest';
import type { Tenant } from '../../src/admin/tenant-handle.js';
import type { CreateAccountInput } from '../../src/admin/client.js';
import { startMockServer, type MockServer } from '../../src/server.js';
import type { MockOptions } from '../../src/config/options.js';

export function useSandbox(options: MockOptions = {}): { readonly mock: MockServer } {
  const holder: { mock?: MockServer } = {};
  beforeAll(async () => {
    holder.mock = await startMockServer({ seed: 'findings', ...options });
  });
  afterAll(async () => {
    await holder.mock?.close();
  });
  return {
    get mock() {
      if (!holder.mock) throw new Error('the sandbox starts in beforeAll');
      return holder.mock;
    },
  };
}

export async function newTenant(mock: MockServer, input: CreateAccountInput = {}): Promise<Tenant> {
  return mock.admin.accounts.create({ plan: 'paid', ...input });
}

/** One /v1 call with the tenant's key; transport failures resolve to `null`. */
export async function call(
  mock: MockServer,
  tenant: Tenant,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response | null> {
  const headers: Record<string, string> = { Authorization: `Bearer ${tenant.token}`, ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    const res = await fetch(`${mock.apiUrl}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    });
    await res.arrayBuffer();
    return res;
  } catch {
    return null;
  }
}

export async function rules(tenant: Tenant): Promise<string[]> {
  const page = await tenant.findings({ limit: 100 });
  return page.data.map((f) => f.rule).reverse();
}
