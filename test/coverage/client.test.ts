/**
 * Contract §5.2, §5.3: the typed client reaches coverage and the HAR export, for the whole sandbox
 * (`admin.coverage`, `admin.requests.har`) and for one tenant (`tenant.coverage()`, `tenant.har()`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { bearer, KEYS, startServer } from '../support/harness.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startServer();
});
afterAll(() => mock.close());

describe('the admin client: coverage and HAR', () => {
  it("contract §5.2, §5.3: a tenant's coverage and HAR hold its own requests only; the sandbox's hold every account's", async () => {
    const tenant = await mock.admin.accounts.create({});
    await fetch(`${mock.apiUrl}/status`, { headers: bearer(tenant.token) });
    await fetch(`${mock.apiUrl}/status`, { headers: bearer(tenant.token) });
    await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });

    const own = await tenant.coverage();
    expect(own.account_id).toBe(tenant.id);
    expect(own.operations.find((op) => op.operation_id === 'getStatus')).toMatchObject({ calls: 2, statuses: { 200: 2 } });
    const all = await mock.admin.coverage.get();
    expect(all.operations.find((op) => op.operation_id === 'getStatus')!.calls).toBe(3);

    const har = await tenant.har();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(2);
    expect((await tenant.har({ limit: 1 })).log.entries).toHaveLength(1);
    expect((await mock.admin.requests.har()).log.entries).toHaveLength(3);

    expect(await mock.admin.coverage.clear()).toEqual({ object: 'coverage', deleted: true });
    expect((await tenant.coverage()).summary.operations_called).toBe(0);
    // The journal is not coverage: it keeps its entries.
    expect((await tenant.har()).log.entries).toHaveLength(2);
  });
});
