/**
 * Concurrency on a real socket: rate-limit counting stays exact when requests
 * overlap, across every operation of the table. Counts are bounded; nothing is timed.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import type { MockServer } from '../../src/server.js';
import { startServer } from '../support/harness.js';
import { inPool, send, type LoopbackResponse } from '../support/loopback.js';
import { IdPool, OperationRequests, type GeneratedRequest } from '../support/requests.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(options: Parameters<typeof startServer>[0] = {}): Promise<MockServer> {
  const mock = await startServer(options);
  servers.push(mock);
  return mock;
}

/** `count` valid requests, round-robin over every operation, with ids from the tenant's own records. */
async function mixedRequests(mock: MockServer, accountId: string, count: number): Promise<GeneratedRequest[]> {
  const pool = new IdPool((await mock.admin.accounts.get(accountId)).state);
  const perOperation = OPERATIONS.map((op) =>
    fc.sample(new OperationRequests(op, pool, new IdPool({})).valid(), { numRuns: Math.ceil(count / OPERATIONS.length), seed: 7 }),
  );
  return Array.from({ length: count }, (_, i) => perOperation[i % OPERATIONS.length]![Math.floor(i / OPERATIONS.length)]!);
}

function expectRefusedByRateLimit(res: LoopbackResponse, tier: 'free' | 'paid'): void {
  expect(res.body.error).toMatchObject({ code: 'rate_limit_exceeded', plan_tier: tier });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe('rate limiting under concurrency (spec §8)', () => {
  it('§8: 650 requests, 50 at a time, mixed over every operation, on one free key: exactly 600 answered and 50 refused', async () => {
    const mock = await server();
    const { account, api_key } = await mock.admin.accounts.create({ plan: 'free' });
    const requests = await mixedRequests(mock, account.id, 650);
    const responses = await inPool(requests, 50, (request) => send(mock, request, { token: api_key.token }));

    expect(responses.filter((r) => r.status >= 500)).toEqual([]);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(50);
    for (const res of refused) expectRefusedByRateLimit(res, 'free');
    // Every answered request saw its own place in the window: remaining 599, 598, … 0, each exactly once.
    const remaining = responses.filter((r) => r.status !== 429).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });

  it('§8, §5.5: keys and anonymous callers count separately, each exactly, while their requests interleave', async () => {
    const mock = await server({ rateLimit: 'free=100,paid=200' });
    const free1 = await mock.admin.accounts.create({ plan: 'free' });
    const free2 = await mock.admin.accounts.create({ plan: 'free' });
    const paid = await mock.admin.accounts.create({ plan: 'paid' });
    const callers = [
      {
        name: 'free1',
        token: free1.api_key.token,
        tier: 'free' as const,
        limit: 100,
        requests: await mixedRequests(mock, free1.account.id, 130),
      },
      {
        name: 'free2',
        token: free2.api_key.token,
        tier: 'free' as const,
        limit: 100,
        requests: await mixedRequests(mock, free2.account.id, 105),
      },
      {
        name: 'paid',
        token: paid.api_key.token,
        tier: 'paid' as const,
        limit: 200,
        requests: await mixedRequests(mock, paid.account.id, 230),
      },
      // No key: counted per client IP (spec §5.5), as free.
      {
        name: 'anonymous',
        token: '',
        tier: 'free' as const,
        limit: 100,
        requests: (await mixedRequests(mock, free1.account.id, 110)).map((r) => ({ ...r, credential: 'anonymous' as const })),
      },
    ];
    const interleaved = callers.flatMap((caller) =>
      caller.requests.map((request, i) => ({ caller, request, order: i * callers.length + callers.indexOf(caller) })),
    );
    interleaved.sort((a, b) => a.order - b.order);
    const responses = await inPool(interleaved, 40, async ({ caller, request }) => ({
      caller,
      res: await send(mock, request, { token: caller.token }),
    }));

    for (const caller of callers) {
      const mine = responses.filter((r) => r.caller === caller).map((r) => r.res);
      const refused = mine.filter((r) => r.status === 429);
      expect(refused, caller.name).toHaveLength(caller.requests.length - caller.limit);
      for (const res of refused) expectRefusedByRateLimit(res, caller.tier);
      if (caller.name === 'anonymous')
        expect(
          mine.filter((r) => r.status === 401),
          caller.name,
        ).toHaveLength(caller.limit);
    }
  });

  it('§8: after the window resets (virtual clock + 60 s) the full quota is back', async () => {
    const mock = await server({ rateLimit: 'free=20,paid=20' });
    const { account, api_key } = await mock.admin.accounts.create({ plan: 'free' });
    const requests = await mixedRequests(mock, account.id, 30);
    const first = await inPool(requests, 15, (request) => send(mock, request, { token: api_key.token }));
    expect(first.filter((r) => r.status === 429)).toHaveLength(10);
    await mock.admin.clock.advance(60);
    const second = await inPool(requests.slice(0, 25), 15, (request) => send(mock, request, { token: api_key.token }));
    expect(second.filter((r) => r.status === 429)).toHaveLength(5);
  });
});
