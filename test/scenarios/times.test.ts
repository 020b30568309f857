/**
 * Contract §3.5: `times` ends an activation after exactly that many matching requests (or jobs),
 * with requests really arriving at once over loopback sockets.
 */
import { describe, expect, it } from 'vitest';
import { bearer, FROZEN_AT, KEYS } from '../support/harness.js';
import { mockServers } from '../support/protocol.js';

const start = mockServers();
const TOKENS = [KEYS.free, KEYS.freeReadOnly, KEYS.paid];

async function statuses(responses: Promise<Response>[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const res of await Promise.all(responses)) {
    counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
    await res.arrayBuffer();
  }
  return counts;
}

describe('times under concurrent requests (contract §3.5)', () => {
  it('contract §3.5: rate-limited with times 7 refuses exactly 7 of 60 simultaneous requests, then ends', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const active = await mock.admin.scenarios.activate({ name: 'rate-limited', times: 7 });
    const counts = await statuses(
      Array.from({ length: 60 }, (_, i) => fetch(`${mock.apiUrl}/status`, { headers: bearer(TOKENS[i % 3]!) })),
    );
    expect(Object.fromEntries(counts)).toEqual({ 200: 53, 429: 7 });
    expect((await mock.admin.scenarios.list()).active).toEqual([]);
    const { data } = await mock.admin.requests.list({ limit: 100 });
    expect(data.filter((e) => e.scenario_ids.includes(active.id)).map((e) => e.status)).toEqual(Array(7).fill(429));
  });

  it('contract §3.5: a delayed request is counted when its wait begins: slow-responses with times 4 delays exactly 4 of 20', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const active = await mock.admin.scenarios.activate({ name: 'slow-responses', times: 4, params: { delay_ms: 50 } });
    const counts = await statuses(
      Array.from({ length: 20 }, (_, i) => fetch(`${mock.apiUrl}/auth/keys`, { headers: bearer(TOKENS[i % 3]!) })),
    );
    expect(Object.fromEntries(counts)).toEqual({ 200: 20 });
    const { data } = await mock.admin.requests.list();
    expect(data.filter((e) => e.scenario_ids.includes(active.id))).toHaveLength(4);
    expect(await mock.admin.scenarios.get(active.id).catch((error: Error) => error.message)).toMatch(/404 resource_missing/);
  });

  it('contract §3.5: crawl-fails with times 3 fails exactly 3 of 12 simultaneous crawls, though all 12 matched when they arrived', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const { account, api_key } = await mock.admin.accounts.create({ plan: 'paid' });
    await mock.admin.scenarios.activate({ name: 'crawl-fails', account_id: account.id, times: 3 });
    const crawl = () =>
      fetch(`${mock.apiUrl}/web/crawl`, {
        method: 'POST',
        headers: { ...bearer(api_key.token), 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/', max_pages: 1 }),
      });
    const counts = await statuses(Array.from({ length: 12 }, crawl));
    expect(Object.fromEntries(counts)).toEqual({ 201: 12 });
    await mock.admin.clock.advance(3600);
    const { state } = await mock.admin.accounts.get(account.id);
    const byStatus = state.jobs.reduce<Record<string, number>>(
      (acc, job) => ({ ...acc, [String(job.status)]: (acc[String(job.status)] ?? 0) + 1 }),
      {},
    );
    expect(byStatus).toEqual({ completed: 9, failed: 3 });
  });

  it('contract §3.5: a boot activation with times 2 (deprecated-operations) marks exactly the next 2 requests, then ends', async () => {
    const mock = await start({ clock: FROZEN_AT, scenarios: ['deprecated-operations;times=2'] });
    const counts = await statuses([
      fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }),
      fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.paid) }),
    ]);
    expect(Object.fromEntries(counts)).toEqual({ 200: 2 });
    expect((await mock.admin.scenarios.list()).active).toEqual([]);
    const third = await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
    expect(third.headers.get('deprecation')).toBeNull();
  });
});
