/**
 * The errors every resource operation documents that do not depend on its body: 401 (spec §5.3),
 * 403 for writes with a read-only key (§5.4), 429 over the window's quota (§8). A refused write
 * leaves the account exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, RESOURCE_REQUESTS, send, stateOf, type ResourceRequest } from '../support/resources.js';

const writes = RESOURCE_REQUESTS.filter((r) => r.op.method !== 'GET');
const reads = RESOURCE_REQUESTS.filter((r) => r.op.method === 'GET');
const name = (r: ResourceRequest) => `${r.op.operationId} (spec §${r.op.specSection})`;

describe('protocol errors of the resource operations', () => {
  it.each(RESOURCE_REQUESTS.map((r) => [name(r), r] as const))('%s: the valid request succeeds', async (_, request) => {
    expectSuccess(await send(makeApp(), request, bearer(KEYS.free)), request.op);
  });

  it.each(RESOURCE_REQUESTS.map((r) => [name(r), r] as const))('§5.3 %s: no credential is 401', async (_, request) => {
    const res = await send(makeApp(), request);
    expectError(res, 'authentication_required', { message: MESSAGES.authMissing });
    expect(request.op.errors).toContain(401);
  });

  it.each(writes.map((r) => [name(r), r] as const))('§5.4 %s: a read-only key gets 403 and changes nothing', async (_, request) => {
    const app = makeApp();
    const before = await stateOf(app, ACCOUNTS.free);
    expectError(await send(app, request, bearer(KEYS.freeReadOnly)), 'forbidden', { message: MESSAGES.readOnlyKey });
    const after = await stateOf(app, ACCOUNTS.free);
    // Only the key's last use moves; every record is as it was.
    expect({ ...after, api_keys: [] }).toEqual({ ...before, api_keys: [] });
    expect(request.op.errors).toContain(403);
  });

  it.each(reads.map((r) => [name(r), r] as const))('§5 %s: a read-only key may read', async (_, request) => {
    expectSuccess(await send(makeApp(), request, bearer(KEYS.freeReadOnly)), request.op);
  });

  it.each(RESOURCE_REQUESTS.map((r) => [name(r), r] as const))(
    '§8 %s: over the quota is 429 with plan_tier and no effect',
    async (_, request) => {
      const app = makeApp({ rateLimit: 'free=1,paid=1' });
      await client(app).get('/v1/status').set(bearer(KEYS.free));
      const before = await stateOf(app, ACCOUNTS.free);
      const res = await send(app, request, bearer(KEYS.free));
      expectError(res, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'free' } });
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(await stateOf(app, ACCOUNTS.free)).toEqual(before);
      expect(request.op.errors).toContain(429);
    },
  );
});
