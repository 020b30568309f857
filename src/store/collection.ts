import { BTree, type BTreeOf as GenericBTree } from './btree.js';
import { recordBytes, type RecordMeter } from './record-meter.js';
import { compareOrderKeys, SecondaryIndex, type IndexDefinition, type OrderKey } from './secondary-index.js';

export type { OrderKey };
type BTreeOf<V> = GenericBTree<OrderKey, V>;

export interface Identified {
  id: string;
}

export interface PageRequest<T> {
  limit: number;
  /** Id of the last item of the previous page; must be (or have been) in this collection. */
  startingAfter?: string | undefined;
  filter?: ((record: T) => boolean) | undefined;
  /** Only the records an index files under `key`, walked in the index instead of the whole collection. */
  index?: IndexQuery<T> | undefined;
}

export interface IndexQuery<T> {
  by: IndexDefinition<T>;
  key: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * What a reader may do with a collection: no insert, update or delete. An account hands its seeded
 * collections out this way until it writes them (src/store/store.ts), so a write through a read
 * handle does not compile.
 */
export type ReadCollection<T extends Identified> = Pick<
  Collection<T>,
  'size' | 'has' | 'get' | 'find' | 'filter' | 'values' | 'head' | 'page' | 'bytes' | 'copy'
>;

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
 * adds the records it skips; a filter by an index does not: it walks only the matching records).
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
  /**
   * Secondary indexes, built the first time a page asks for one (a collection nobody filters pays
   * nothing) and kept up to date by insert, update and delete from then on.
   */
  private readonly indexes = new Map<IndexDefinition<T>, SecondaryIndex<T>>();
  /**
   * The account's record budget, once the collection is the account's own (src/store/store.ts), and
   * what each record weighed when last written: a write is checked and counted by its own size, a
   * delete gives back what was counted, so nothing ever walks the collection again.
   */
  private meter: RecordMeter | undefined;
  private readonly bytesById = new Map<string, number>();

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

  /**
   * Counts every later write against `meter` (once, when an account takes the collection as its own).
   * The records held now are the account's seeded ones, which the meter counts from the account's
   * birth: only what each weighs is kept, so a delete or a replace gives back what was counted.
   */
  attachMeter(meter: RecordMeter): void {
    if (this.meter) return;
    this.meter = meter;
    for (const record of this.byOrder.values()) this.bytesById.set(record.id, recordBytes(record));
  }

  /**
   * Adds a record; a metered one is refused first (422 naming `param`) when it would pass the
   * account's record budget. `bytes`: what it is counted as, when more than it weighs now (a job
   * whose timestamps and ids fill in as it runs, changed in place without `update`).
   */
  insert(record: T, param: string | null = 'body', bytes?: number): T {
    if (this.keyById.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    if (this.meter) {
      const size = Math.max(bytes ?? 0, recordBytes(record));
      // `null`: counted, never refused (a record admitted before its id was drawn, or one the account is born with).
      if (param !== null) this.meter.check([size], param);
      this.meter.add(size);
      this.bytesById.set(record.id, size);
    }
    // A record made again under a deleted id takes a new position; its old cursor position is forgotten.
    this.deletedKeyById.delete(record.id);
    const key: OrderKey = [createdMs(record), this.nextSeq++];
    this.keyById.set(record.id, key);
    this.byOrder.set(key, record);
    for (const index of this.indexes.values()) index.add(key, record);
    return record;
  }

  /**
   * Changes a record in place; the way to change a field an index files it under (the record then
   * moves between buckets). Its place in the order stays (it was fixed by `created_at` on insert),
   * and its `id` must not change. `undefined` for an unknown id.
   */
  update(id: string, change: (record: T) => void): T | undefined {
    const key = this.keyById.get(id);
    const record = key === undefined ? undefined : this.byOrder.get(key);
    if (key === undefined || record === undefined) return undefined;
    for (const index of this.indexes.values()) index.remove(key, record);
    try {
      change(record);
    } finally {
      for (const index of this.indexes.values()) index.add(key, record);
      // Counted, never refused: an in-place change is a fixed-size one (a status, a count, a shorter
      // list); a change that can grow a record is a `replace`, checked before it happens.
      if (this.meter) this.recount(id, recordBytes(record));
    }
    return record;
  }

  /**
   * Puts `next` in place of the record `id` (same id, same place in the order), refused first (422
   * naming `param`) when it would make the record or the account pass its bound: nothing changes
   * then. `undefined` for an unknown id.
   */
  replace(id: string, next: T, param = 'body'): T | undefined {
    const key = this.keyById.get(id);
    const record = key === undefined ? undefined : this.byOrder.get(key);
    if (key === undefined || record === undefined) return undefined;
    if (next.id !== id) throw new Error(`replace changes id ${id} to ${next.id}`);
    if (this.meter) {
      const size = recordBytes(next);
      this.meter.check([size], param, this.bytesById.get(id) ?? 0);
      this.recount(id, size);
    }
    for (const index of this.indexes.values()) index.remove(key, record);
    this.byOrder.set(key, next);
    for (const index of this.indexes.values()) index.add(key, next);
    return next;
  }

  private recount(id: string, size: number): void {
    this.meter!.add(size - (this.bytesById.get(id) ?? 0));
    this.bytesById.set(id, size);
  }

  delete(id: string): T | undefined {
    const key = this.keyById.get(id);
    if (key === undefined) return undefined;
    const record = this.byOrder.get(key);
    this.keyById.delete(id);
    this.byOrder.delete(key);
    if (record !== undefined) for (const index of this.indexes.values()) index.remove(key, record);
    this.deletedKeyById.set(id, key);
    if (this.meter) {
      this.meter.add(-(this.bytesById.get(id) ?? 0));
      this.bytesById.delete(id);
    }
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

  /** The `limit` oldest, oldest first: reads only as far as it returns. */
  head(limit: number): T[] {
    const out: T[] = [];
    if (limit <= 0) return out;
    for (const record of this.byOrder.values()) {
      out.push(record);
      if (out.length === limit) break;
    }
    return out;
  }

  /** What the record `id` weighed when last written (0 while the collection is not an account's own). */
  bytes(id: string): number {
    return this.bytesById.get(id) ?? 0;
  }

  /** Newest first, starting after `startingAfter`; `undefined` when the cursor was never in this collection. */
  page(request: PageRequest<T>): Page<T> | undefined {
    let cursor: OrderKey | undefined;
    if (request.startingAfter !== undefined) {
      cursor = this.keyById.get(request.startingAfter) ?? this.deletedKeyById.get(request.startingAfter);
      if (cursor === undefined) return undefined;
    }
    // An index bucket holds the same keys as the main tree, so the cursor's position means the same in both.
    const tree = request.index ? this.indexed(request.index.by).bucket(request.index.key) : this.byOrder;
    if (tree === undefined) return { data: [], hasMore: false };
    // Starts at the cursor's position (skipping it if it is there) and walks towards older records.
    const iterator = cursor === undefined ? tree.entriesReversed() : tree.entriesReversed(cursor, undefined, true);
    const data: T[] = [];
    for (const [, record] of iterator) {
      if (request.filter && !request.filter(record)) continue;
      // One record past the page proves `has_more` without counting the rest.
      if (data.length === request.limit) return { data, hasMore: true };
      data.push(record);
    }
    return { data, hasMore: false };
  }

  /**
   * A copy holding `copyRecord` of each record under the same order key, the same tombstones and the
   * same next sequence number: it pages, cursors and orders later inserts exactly as this one would.
   * Not metered (the account attaches its meter), and its indexes are built when first asked for, from
   * the same records, as this one's were.
   */
  copy(copyRecord: (record: T) => T): Collection<T> {
    const out = new Collection<T>();
    for (const [key, record] of this.byOrder.entries()) {
      const copied = copyRecord(record);
      out.keyById.set(copied.id, key);
      out.byOrder.set(key, copied);
    }
    for (const [id, key] of this.deletedKeyById) out.deletedKeyById.set(id, key);
    out.nextSeq = this.nextSeq;
    return out;
  }

  /** The index of `definition`, built from the records held now the first time it is asked for. */
  private indexed(definition: IndexDefinition<T>): SecondaryIndex<T> {
    let index = this.indexes.get(definition);
    if (!index) {
      index = new SecondaryIndex(definition);
      for (const [key, record] of this.byOrder.entries()) index.add(key, record);
      this.indexes.set(definition, index);
    }
    return index;
  }
}
