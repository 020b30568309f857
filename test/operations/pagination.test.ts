import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { compileSchema } from '../../src/operations/validation.js';
import { paginationQueryProperties } from '../../src/operations/schemas.js';
import { listApiKeys } from '../../src/resources/api-keys/operations.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { Collection } from '../../src/store/collection.js';
import { bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';

const validPage = compileSchema(listApiKeys.success.schema);

type Api = ReturnType<typeof client>;

/** Creates `n` keys on the free account; returns their ids in creation order. */
async function createKeys(api: Api, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api
      .post('/v1/auth/keys')
      .set(bearer(KEYS.free))
      .send({ name: `key ${i}` });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

async function listKeys(api: Api, query: string) {
  const res = await api.get(`/v1/auth/keys${query}`).set(bearer(KEYS.free));
  if (res.status === 200) expect(validPage(res.body), JSON.stringify(validPage.errors)).toBe(true);
  return res;
}

describe('one mechanism for every list (spec §4)', () => {
  const lists = OPERATIONS.filter(
    (op) => (op.success.schema.properties as Record<string, { const?: unknown }> | undefined)?.object?.const === 'list',
  );

  it('§4: there is at least one list operation', () => {
    expect(lists.map((op) => op.operationId)).toContain('listApiKeys');
  });

  it.each(lists.map((op) => [op.operationId, op] as const))(
    '§4: %s takes the shared starting_after and limit (paginatedQuery)',
    (_id, op) => {
      const properties = (op.query?.properties ?? {}) as Record<string, unknown>;
      expect(op.method).toBe('GET');
      expect(properties.starting_after).toEqual(paginationQueryProperties.starting_after);
      expect(properties.limit).toEqual(paginationQueryProperties.limit);
      expect(op.errors).toContain(400);
    },
  );
});

describe('list pages over the API (spec §4, §2.1)', () => {
  it('§4: limit defaults to 15, has_more says another page follows, url is the path with /v1', async () => {
    const api = client(makeApp());
    await createKeys(api, 20); // plus the account's two fixture keys: 22
    const res = await listKeys(api, '');
    expect(res.body.data).toHaveLength(15);
    expect(res.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/auth/keys' });
    const withQuery = await listKeys(api, '?limit=3');
    expect(withQuery.body.url).toBe('/v1/auth/keys');
  });

  it('§4: walking every page with starting_after yields each key exactly once, newest first, and the last page says has_more false', async () => {
    const api = client(makeApp());
    const before = (await listKeys(api, '?limit=100')).body.data.map((k: { id: string }) => k.id);
    const created = await createKeys(api, 47);
    const expected = [...created].reverse().concat(before);
    expect(expected).toHaveLength(49);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await listKeys(api, `?limit=7${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      pages += 1;
      const ids = res.body.data.map((k: { id: string }) => k.id);
      seen.push(...ids);
      if (!res.body.has_more) break;
      expect(ids).toHaveLength(7);
      cursor = ids[ids.length - 1];
    }
    expect(pages).toBe(7);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('§4: a page that ends exactly at the last record has has_more false; a cursor on the last record gives an empty page', async () => {
    const api = client(makeApp());
    await createKeys(api, 13); // 15 keys in all
    const full = await listKeys(api, '');
    expect(full.body.data).toHaveLength(15);
    expect(full.body.has_more).toBe(false);
    const last = full.body.data[14].id;
    const after = await listKeys(api, `?starting_after=${last}`);
    expect(after.body).toEqual({ object: 'list', data: [], has_more: false, url: '/v1/auth/keys' });
  });

  it('§4: limit 1 and limit 100 are both accepted', async () => {
    const api = client(makeApp());
    await createKeys(api, 3);
    const one = await listKeys(api, '?limit=1');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.has_more).toBe(true);
    const hundred = await listKeys(api, '?limit=100');
    expect(hundred.body.data).toHaveLength(5);
    expect(hundred.body.has_more).toBe(false);
  });

  it.each([
    ['0', 'must be >= 1'],
    ['101', 'must be <= 100'],
    ['-1', 'must be >= 1'],
    ['abc', 'must be an integer'],
    ['1.5', 'must be an integer'],
    ['', 'must be an integer'],
    ['0x10', 'must be an integer'],
    ['5e0', 'must be an integer'],
    ['+5', 'must be an integer'],
    ['%205', 'must be an integer'],
  ])('§4: limit=%s is 400 bad_request naming limit (%s)', async (value, detail) => {
    const res = await client(makeApp()).get(`/v1/auth/keys?limit=${value}`).set(bearer(KEYS.free));
    expectError(res, 'bad_request', { param: 'limit', message: MESSAGES.invalidQuery('limit', detail) });
  });

  it('§4: a repeated limit is 400 bad_request naming limit', async () => {
    const res = await client(makeApp()).get('/v1/auth/keys?limit=5&limit=6').set(bearer(KEYS.free));
    expectError(res, 'bad_request', { param: 'limit', message: MESSAGES.invalidQuery('limit', 'must be given only once') });
  });

  it('§4: an unknown starting_after is 400 bad_request naming starting_after, in the envelope', async () => {
    const res = await client(makeApp()).get('/v1/auth/keys?starting_after=key_doesnotexist').set(bearer(KEYS.free));
    expectError(res, 'bad_request', {
      param: 'starting_after',
      message: MESSAGES.unknownCursor('key_doesnotexist'),
    });
  });

  it("§4, §5: a starting_after naming another account's record is unknown in this list (tenancy)", async () => {
    const api = client(makeApp());
    const res = await api.get('/v1/auth/keys?starting_after=key_paid_default').set(bearer(KEYS.free));
    expectError(res, 'bad_request', {
      param: 'starting_after',
      message: MESSAGES.unknownCursor('key_paid_default'),
    });
  });

  it('§4: an empty or repeated starting_after is 400 naming it', async () => {
    const api = client(makeApp());
    expectError(await api.get('/v1/auth/keys?starting_after=').set(bearer(KEYS.free)), 'bad_request', {
      param: 'starting_after',
      message: MESSAGES.invalidQuery('starting_after', 'must NOT have fewer than 1 characters'),
    });
    expectError(await api.get('/v1/auth/keys?starting_after=a&starting_after=b').set(bearer(KEYS.free)), 'bad_request', {
      param: 'starting_after',
      message: MESSAGES.invalidQuery('starting_after', 'must be given only once'),
    });
  });

  it('§4: rejected list requests leave state unharmed', async () => {
    const app = makeApp();
    const api = client(app);
    const before = (await listKeys(api, '?limit=100')).body;
    await api.get('/v1/auth/keys?limit=abc').set(bearer(KEYS.free));
    await api.get('/v1/auth/keys?starting_after=nope').set(bearer(KEYS.free));
    const after = (await listKeys(api, '?limit=100')).body;
    // last_used_at of the calling key is the only thing a request may touch, and the clock is frozen.
    expect(after).toEqual(before);
  });
});

interface Row {
  id: string;
  created_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const BASE = Date.parse('2026-01-01T00:00:00Z');

describe('Collection: the one order and cursor of every list (spec §4)', () => {
  it('§4: pages are newest first by created_at even when records were inserted out of order', () => {
    const rows = new Collection<Row>();
    const offsets = [5, 1, 9, 3, 7, 2, 8, 0, 6, 4];
    for (const s of offsets) rows.insert({ id: `r${s}`, created_at: iso(BASE + s * 1000) });
    const page = rows.page({ limit: 100 })!;
    expect(page.data.map((r) => r.id)).toEqual(['r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
    expect(rows.values().map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9']);
  });

  it('§4: records created in the same second are listed newest first by creation order', () => {
    const rows = new Collection<Row>();
    for (const id of ['a', 'b', 'c']) rows.insert({ id, created_at: iso(BASE) });
    rows.insert({ id: 'older', created_at: iso(BASE - 1000) });
    expect(rows.page({ limit: 10 })!.data.map((r) => r.id)).toEqual(['c', 'b', 'a', 'older']);
    expect(rows.page({ limit: 10, startingAfter: 'b' })!.data.map((r) => r.id)).toEqual(['a', 'older']);
  });

  it('§4: a cursor on a record deleted since the previous page still continues after its place', () => {
    const rows = new Collection<Row>();
    for (let i = 0; i < 6; i++) rows.insert({ id: `r${i}`, created_at: iso(BASE + i * 1000) });
    const first = rows.page({ limit: 2 })!;
    expect(first.data.map((r) => r.id)).toEqual(['r5', 'r4']);
    // A client deleting what it pages through: the cursor's record is gone by the next call.
    for (const r of first.data) rows.delete(r.id);
    expect(rows.page({ limit: 2, startingAfter: 'r4' })!.data.map((r) => r.id)).toEqual(['r3', 'r2']);
    expect(rows.page({ limit: 2, startingAfter: 'never-existed' })).toBeUndefined();
  });

  it('§4: a filter skips records without changing the order or the cursor', () => {
    const rows = new Collection<Row & { even: boolean }>();
    for (let i = 0; i < 10; i++) rows.insert({ id: `r${i}`, created_at: iso(BASE + i * 1000), even: i % 2 === 0 });
    const filter = (r: { even: boolean }) => r.even;
    const first = rows.page({ limit: 2, filter })!;
    expect(first).toEqual({ data: [expect.objectContaining({ id: 'r8' }), expect.objectContaining({ id: 'r6' })], hasMore: true });
    const rest = rows.page({ limit: 5, startingAfter: 'r6', filter })!;
    expect(rest.data.map((r) => r.id)).toEqual(['r4', 'r2', 'r0']);
    expect(rest.hasMore).toBe(false);
  });

  it('§4: a page costs O(limit + log n): on 200,000 records a page visits at most limit + 1 of them, wherever it starts', () => {
    const n = 200_000;
    const rows = new Collection<Row>();
    for (let i = 0; i < n; i++) rows.insert({ id: `r${i}`, created_at: iso(BASE + i * 1000) });
    expect(rows.size).toBe(n);

    let visited = 0;
    const counting = () => {
      visited += 1;
      return true;
    };
    const cases: Array<[string | undefined, number, string[]]> = [
      [undefined, 100, ['r199999', 'r199900']],
      ['r100000', 100, ['r99999', 'r99900']],
      ['r150', 100, ['r149', 'r50']],
      ['r3', 100, ['r2', 'r0']],
    ];
    for (const [startingAfter, limit, [first, last]] of cases) {
      visited = 0;
      const page = rows.page({ limit, startingAfter, filter: counting })!;
      expect(page.data[0]?.id).toBe(first);
      expect(page.data[page.data.length - 1]?.id).toBe(last);
      expect(visited).toBeLessThanOrEqual(limit + 1);
    }
    // Walking the whole collection at limit 100 visits each record about once, not n times per page.
    visited = 0;
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = rows.page({ limit: 100, startingAfter: cursor, filter: counting })!;
      pages += 1;
      if (!page.hasMore) break;
      cursor = page.data[page.data.length - 1]!.id;
    }
    expect(pages).toBe(n / 100);
    expect(visited).toBeLessThanOrEqual(n + pages);
  });
});
