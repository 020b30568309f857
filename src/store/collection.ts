import { BTree, type BTreeOf as GenericBTree } from './btree.js';

/** Position of a record in the one order of every list: creation time, then creation sequence. */
export type OrderKey = readonly [createdMs: number, seq: number];
type BTreeOf<V> = GenericBTree<OrderKey, V>;

const compareOrderKeys = (a: OrderKey, b: OrderKey): number => a[0] - b[0] || a[1] - b[1];

export interface Identified {
  id: string;
}

export interface PageRequest<T> {
  limit: number;
  /** Id of the last item of the previous page; must be (or have been) in this collection. */
  startingAfter?: string | undefined;
  filter?: ((record: T) => boolean) | undefined;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** `created_at` in ms; records without a parsable one sort first (oldest), among themselves by insertion. */
function createdMs(record: Identified): number {
  const created = (record as { created_at?: unknown }).created_at;
  const ms = typeof created === 'string' ? Date.parse(created) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * An ordered collection of records of one kind, for one account.
 *
 * The order is creation order: `created_at`, ties broken by insertion sequence (records created in
 * the same second keep the order they were made in). Seeders may insert back-dated records in any
 * order and lists still come out newest first. The records live in a B+ tree keyed by that pair and
 * an id -> key map, so a page costs O(log n + limit) however large the collection grows (a filter
 * adds the records it skips).
 *
 * A deleted record's position is kept (a tombstone of two numbers), so a client that deletes the
 * records of a page and then asks for the next page with `starting_after` = the last deleted id
 * still gets the next page instead of an error.
 */
export class Collection<T extends Identified> {
  private readonly byOrder: BTreeOf<T> = new BTree<OrderKey, T>(undefined, compareOrderKeys);
  private readonly keyById = new Map<string, OrderKey>();
  private readonly deletedKeyById = new Map<string, OrderKey>();
  private nextSeq = 0;

  get size(): number {
    return this.keyById.size;
  }

  has(id: string): boolean {
    return this.keyById.has(id);
  }

  get(id: string): T | undefined {
    const key = this.keyById.get(id);
    return key === undefined ? undefined : this.byOrder.get(key);
  }

  insert(record: T): T {
    if (this.keyById.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    // A record made again under a deleted id takes a new position; its old cursor position is forgotten.
    this.deletedKeyById.delete(record.id);
    const key: OrderKey = [createdMs(record), this.nextSeq++];
    this.keyById.set(record.id, key);
    this.byOrder.set(key, record);
    return record;
  }

  delete(id: string): T | undefined {
    const key = this.keyById.get(id);
    if (key === undefined) return undefined;
    const record = this.byOrder.get(key);
    this.keyById.delete(id);
    this.byOrder.delete(key);
    this.deletedKeyById.set(id, key);
    return record;
  }

  find(predicate: (record: T) => boolean): T | undefined {
    for (const record of this.byOrder.values()) if (predicate(record)) return record;
    return undefined;
  }

  filter(predicate: (record: T) => boolean): T[] {
    const out: T[] = [];
    for (const record of this.byOrder.values()) if (predicate(record)) out.push(record);
    return out;
  }

  /** Oldest first. */
  values(): T[] {
    return this.byOrder.valuesArray();
  }

  /** Newest first, starting after `startingAfter`; `undefined` when the cursor was never in this collection. */
  page(request: PageRequest<T>): Page<T> | undefined {
    let iterator: IterableIterator<[OrderKey, T]>;
    if (request.startingAfter !== undefined) {
      const key = this.keyById.get(request.startingAfter) ?? this.deletedKeyById.get(request.startingAfter);
      if (key === undefined) return undefined;
      // Starts at the cursor's position (skipping it if it is still there) and walks towards older records.
      iterator = this.byOrder.entriesReversed(key, undefined, true);
    } else {
      iterator = this.byOrder.entriesReversed();
    }
    const data: T[] = [];
    for (const [, record] of iterator) {
      if (request.filter && !request.filter(record)) continue;
      // One record past the page proves `has_more` without counting the rest.
      if (data.length === request.limit) return { data, hasMore: true };
      data.push(record);
    }
    return { data, hasMore: false };
  }
}
