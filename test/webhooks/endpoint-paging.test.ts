/**
 * The endpoint listing (`GET /__admin/webhook_endpoints`, contract §4.3) pages by position, not by
 * walking from the start: a page after a cursor near the end of many endpoints reads the page, not
 * everything before it; and a page is bounded in bytes as the other admin listings are.
 */
import { describe, expect, it } from 'vitest';
import { IdGenerator } from '../../src/random.js';
import { Endpoints } from '../../src/webhooks/endpoints.js';

function many(count: number, accounts: number): Endpoints {
  const endpoints = new Endpoints('seed');
  for (let a = 0; a < accounts; a++) {
    const ids = new IdGenerator(`paging ${a}`);
    for (let i = 0; i < count / accounts; i++)
      endpoints.create({ accountId: `acct_${a}`, url: 'http://127.0.0.1:9/h', events: ['*'] }, 0, ids);
  }
  return endpoints;
}

describe('webhook endpoint listing pages by position', () => {
  it('a page after a cursor near the end of 20,000 endpoints walks the page, not the endpoints before it', () => {
    const endpoints = many(20_000, 200);
    const all = endpoints.list();
    const page = endpoints.page(undefined, 100, all[all.length - 2]!.id)!;
    expect(page.data.map((e) => e.id)).toEqual([all[all.length - 1]!.id]);
    expect(page.hasMore).toBe(false);
    expect(endpoints.walked).toBeLessThanOrEqual(2);
    const middle = endpoints.page(undefined, 10, all[10_000]!.id)!;
    expect(middle.data.map((e) => e.id)).toEqual(all.slice(10_001, 10_011).map((e) => e.id));
    expect(middle.hasMore).toBe(true);
    expect(endpoints.walked).toBeLessThanOrEqual(11);
  });

  it('pages stay in creation order across deletions, and a deleted cursor is unknown', () => {
    const endpoints = many(300, 3);
    const all = endpoints.list();
    for (const endpoint of all.filter((_, i) => i % 3 === 1)) endpoints.delete(endpoint.id);
    const kept = all.filter((_, i) => i % 3 !== 1).map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = endpoints.page(undefined, 7, cursor)!;
      seen.push(...page.data.map((e) => e.id));
      if (!page.hasMore) break;
      cursor = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(kept);
    expect(endpoints.page(undefined, 7, all[1]!.id)).toBeUndefined();
    // One account's, oldest first, its cursor vetted against its own.
    const mine = endpoints.page('acct_1', 1000)!.data.map((e) => e.id);
    expect(mine).toEqual(kept.filter((id) => endpoints.get(id)!.account_id === 'acct_1'));
    expect(endpoints.page('acct_2', 10, mine[0])).toBeUndefined();
  });

  it('a page stops within its byte cap (8 MiB by default), always holding at least one endpoint', () => {
    const endpoints = many(10, 1);
    const one = Buffer.byteLength(JSON.stringify(endpoints.list()[0]));
    const page = endpoints.page(undefined, 10, undefined, one * 3 + 10)!;
    expect(page.data).toHaveLength(3);
    expect(page.hasMore).toBe(true);
    expect(endpoints.page(undefined, 10, undefined, 1)!.data).toHaveLength(1);
  });
});
