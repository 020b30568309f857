/**
 * A secondary index of a collection: for each value of a filterable field, the records holding it,
 * in the collection's own order (the same `OrderKey`s as its main tree). A filtered page walks one
 * bucket from the cursor's position, so it costs O(log n + page) whatever share of the collection
 * matches, and a value nobody holds costs one map lookup.
 *
 * Self-contained on purpose: it knows records only through its definition's `keysOf` and is kept up
 * to date by whoever owns the records (Collection's insert, update and delete), so it can move with
 * the records if the way a collection stores them changes.
 */
import { BTree, type BTreeOf } from './btree.js';

/** Position of a record in the one order of every list: creation time, then creation sequence. */
export type OrderKey = readonly [createdMs: number, seq: number];

export const compareOrderKeys = (a: OrderKey, b: OrderKey): number => a[0] - b[0] || a[1] - b[1];

/**
 * What an index files a record under. A value object: collections tell their indexes apart by
 * identity, so define each once (beside the list that filters by it) and reuse it.
 */
export interface IndexDefinition<T> {
  /** For error messages and debugging only. */
  readonly name: string;
  /** The bucket keys of a record; duplicates are ignored. A record with none is in no bucket. */
  keysOf(record: T): Iterable<string>;
}

export function defineIndex<T>(name: string, keysOf: (record: T) => Iterable<string>): IndexDefinition<T> {
  return Object.freeze({ name, keysOf });
}

/**
 * One bucket key made of several parts, unambiguous whatever the parts contain (labels are free
 * text): for indexes on combinations, such as "this inbox's messages with this label". A null part
 * ("any") differs from every string.
 */
export const compositeKey = (...parts: (string | null)[]): string => JSON.stringify(parts);

export class SecondaryIndex<T> {
  private readonly buckets = new Map<string, BTreeOf<OrderKey, T>>();

  constructor(readonly definition: IndexDefinition<T>) {}

  /** How many bucket keys hold at least one record. */
  get bucketCount(): number {
    return this.buckets.size;
  }

  add(key: OrderKey, record: T): void {
    for (const value of new Set(this.definition.keysOf(record))) {
      let bucket = this.buckets.get(value);
      if (!bucket) this.buckets.set(value, (bucket = new BTree<OrderKey, T>(undefined, compareOrderKeys)));
      bucket.set(key, record);
    }
  }

  /** Removes the record filed at `key`; `record` must still hold the fields it was added with. */
  remove(key: OrderKey, record: T): void {
    for (const value of new Set(this.definition.keysOf(record))) {
      const bucket = this.buckets.get(value);
      if (!bucket) continue;
      bucket.delete(key);
      // An emptied bucket goes, so values that come and go do not pile up.
      if (bucket.size === 0) this.buckets.delete(value);
    }
  }

  /** The records filed under `value`, in order; undefined when there are none. */
  bucket(value: string): BTreeOf<OrderKey, T> | undefined {
    return this.buckets.get(value);
  }
}
