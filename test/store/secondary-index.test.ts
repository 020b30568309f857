/**
 * Filters cost O(log n + limit): list filters walk an index bucket instead of the whole
 * collection. The index must select exactly what the filter it replaces selects, in the same order,
 * with the same cursors: pinned here against the naive filter over the whole collection.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collection } from '../../src/store/collection.js';
import { compositeKey, defineIndex } from '../../src/store/secondary-index.js';

interface Row {
  id: string;
  created_at: string;
  color: string;
  tags: string[];
}

const BASE = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const COLORS = ['red', 'green', 'blue'] as const;
const TAGS = ['a', 'b', 'c', ''] as const;

const BY_COLOR = defineIndex<Row>('rows by color', (row) => [row.color]);
// Duplicate tags on a row are filed once; a row without tags is in no bucket.
const BY_TAG = defineIndex<Row>('rows by tag', (row) => row.tags);

/** Every bucket key a test asks for, with the filter it stands for; `never` matches no row. */
const QUERIES = [
  ...COLORS.map((color) => ({ by: BY_COLOR, key: color, filter: (row: Row) => row.color === color })),
  ...TAGS.map((tag) => ({ by: BY_TAG, key: tag, filter: (row: Row) => row.tags.includes(tag) })),
  { by: BY_COLOR, key: 'never', filter: () => false },
];

type Op =
  | { kind: 'insert'; id: number; second: number; color: string; tags: string[] }
  | { kind: 'update'; id: number; color: string; tags: string[] }
  | { kind: 'delete'; id: number }
  | { kind: 'check'; cursor: number; limit: number };

const idArb = fc.integer({ min: 0, max: 24 });
const tagsArb = fc.array(fc.constantFrom(...TAGS), { maxLength: 3 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Few distinct seconds: many records share a created_at, so ties are broken by insertion order.
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      id: idArb,
      second: fc.integer({ min: 0, max: 6 }),
      color: fc.constantFrom(...COLORS),
      tags: tagsArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('update' as const), id: idArb, color: fc.constantFrom(...COLORS), tags: tagsArb }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: idArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('check' as const),
      cursor: fc.integer({ min: -1, max: 24 }),
      limit: fc.constantFrom(1, 2, 5, 100),
    }),
  },
);

const rowId = (n: number) => `row_${n}`;

/** Pages through the index and through the naive filter, from `cursor`, and asks for the same answers. */
function expectIndexEqualsFilter(rows: Collection<Row>, startingAfter: string | undefined, limit: number): void {
  for (const { by, key, filter } of QUERIES) {
    const indexed = rows.page({ limit, startingAfter, index: { by, key } });
    const naive = rows.page({ limit, startingAfter, filter });
    expect(indexed && { ...indexed, data: indexed.data.map((row) => row.id) }, `${by.name} = ${key} after ${startingAfter}`).toEqual(
      naive && { ...naive, data: naive.data.map((row) => row.id) },
    );
  }
}

/** Walks every page of every query with `limit`, index against filter, page by page. */
function expectWalksEqual(rows: Collection<Row>, limit: number): void {
  for (const { by, key, filter } of QUERIES) {
    const walk = (select: { index: { by: typeof by; key: string } } | { filter: typeof filter }) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = rows.page({ limit, startingAfter: cursor, ...select })!;
        ids.push(...page.data.map((row) => row.id));
        if (!page.hasMore) return ids;
        cursor = page.data[page.data.length - 1]!.id;
      }
    };
    expect(walk({ index: { by, key } })).toEqual(walk({ filter }));
  }
}

describe('secondary indexes of a collection: list filters walk a bucket', () => {
  it('a page through an index equals the naive filter over the whole collection, for random inserts, updates that move records between buckets, deletes and cursors (seeded property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80, size: 'max' }), (ops) => {
        const rows = new Collection<Row>();
        for (const op of ops) {
          if (op.kind === 'insert') {
            // A deleted id may come back: it takes a new place.
            if (rows.has(rowId(op.id))) continue;
            rows.insert({ id: rowId(op.id), created_at: iso(BASE + op.second * 1000), color: op.color, tags: op.tags });
          } else if (op.kind === 'update') {
            rows.update(rowId(op.id), (row) => {
              row.color = op.color;
              row.tags = op.tags;
            });
          } else if (op.kind === 'delete') {
            rows.delete(rowId(op.id));
          } else {
            // The first check builds the indexes from what is there; later operations maintain them.
            expectIndexEqualsFilter(rows, op.cursor < 0 ? undefined : rowId(op.cursor), op.limit);
          }
        }
        // Every cursor: live ids, deleted ids (their place is kept) and ids never seen (undefined).
        for (let id = -1; id <= 24; id++) expectIndexEqualsFilter(rows, id < 0 ? undefined : rowId(id), 2);
        expectWalksEqual(rows, 2);
      }),
      { seed: 16, numRuns: 150 },
    );
  });

  it('pages through an index stay stable when records are inserted and deleted between pages', () => {
    const rows = new Collection<Row>();
    for (let i = 0; i < 12; i++) rows.insert({ id: rowId(i), created_at: iso(BASE + i * 1000), color: i % 2 ? 'red' : 'blue', tags: [] });
    const index = { by: BY_COLOR, key: 'red' };
    const first = rows.page({ limit: 2, index })!;
    expect(first.data.map((row) => row.id)).toEqual(['row_11', 'row_9']);
    // Between pages: the cursor's record is deleted, a newer red one arrives, an older one turns blue.
    rows.delete('row_9');
    rows.insert({ id: rowId(20), created_at: iso(BASE + 20_000), color: 'red', tags: [] });
    rows.update('row_7', (row) => (row.color = 'blue'));
    const next = rows.page({ limit: 2, startingAfter: 'row_9', index })!;
    expect(next).toEqual({ data: [rows.get('row_5'), rows.get('row_3')], hasMore: true });
    expect(rows.page({ limit: 2, startingAfter: 'row_9', filter: (row) => row.color === 'red' })).toEqual(next);
  });

  it('a value no record holds answers an empty page at once, and an unknown cursor is still unknown', () => {
    const rows = new Collection<Row>();
    rows.insert({ id: 'row_1', created_at: iso(BASE), color: 'red', tags: ['a'] });
    expect(rows.page({ limit: 5, index: { by: BY_COLOR, key: 'green' } })).toEqual({ data: [], hasMore: false });
    expect(rows.page({ limit: 5, startingAfter: 'row_1', index: { by: BY_COLOR, key: 'green' } })).toEqual({ data: [], hasMore: false });
    expect(rows.page({ limit: 5, startingAfter: 'nope', index: { by: BY_COLOR, key: 'green' } })).toBeUndefined();
  });

  it('an update that throws half way still leaves the record filed under what it now holds', () => {
    const rows = new Collection<Row>();
    rows.insert({ id: 'row_1', created_at: iso(BASE), color: 'red', tags: [] });
    expect(rows.page({ limit: 5, index: { by: BY_COLOR, key: 'red' } })!.data).toHaveLength(1);
    expect(() =>
      rows.update('row_1', (row) => {
        row.color = 'blue';
        throw new Error('half way');
      }),
    ).toThrow('half way');
    expect(rows.page({ limit: 5, index: { by: BY_COLOR, key: 'red' } })!.data).toEqual([]);
    expect(rows.page({ limit: 5, index: { by: BY_COLOR, key: 'blue' } })!.data.map((row) => row.id)).toEqual(['row_1']);
    expect(rows.update('missing', () => undefined)).toBeUndefined();
  });

  it('composite keys cannot collide, whatever their parts hold', () => {
    expect(compositeKey('a', 'b')).not.toBe(compositeKey('a,b'));
    expect(compositeKey('a', null)).not.toBe(compositeKey('a', 'null'));
    expect(compositeKey('a"', 'b')).not.toBe(compositeKey('a', '"b'));
  });
});
