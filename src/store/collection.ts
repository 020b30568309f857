import btreeModule from 'sorted-btree';

// sorted-btree is CommonJS with `exports.default`: Node's ESM loader hands us `module.exports`
// (class one level down) while Vite's interop hands us the class itself. Accept both.
type BTreeClass = typeof btreeModule.default;
const BTree: BTreeClass =
  (btreeModule as unknown as { default?: BTreeClass }).default ?? (btreeModule as unknown as BTreeClass);
type BTreeOf<V> = InstanceType<typeof BTree<number, V>>;

export interface Identified {
  id: string;
}

export interface PageRequest<T> {
  limit: number;
  /** Id of the last item of the previous page; must be in this collection. */
  startingAfter?: string | undefined;
  filter?: ((record: T) => boolean) | undefined;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * An ordered collection of records of one kind, for one account.
 *
 * Order is insertion order (a monotonic sequence number), which is creation order. Lists are served
 * newest first. The records live in a B+ tree keyed by sequence number and an id -> sequence map, so
 * a page costs O(log n + limit) however large the collection grows (filters add the records they
 * skip).
 */
export class Collection<T extends Identified> {
  private readonly bySeq: BTreeOf<T> = new BTree<number, T>();
  private readonly seqById = new Map<string, number>();
  private nextSeq = 0;

  get size(): number {
    return this.seqById.size;
  }

  has(id: string): boolean {
    return this.seqById.has(id);
  }

  get(id: string): T | undefined {
    const seq = this.seqById.get(id);
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  insert(record: T): T {
    if (this.seqById.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    const seq = this.nextSeq++;
    this.seqById.set(record.id, seq);
    this.bySeq.set(seq, record);
    return record;
  }

  /** Replaces a record in place, keeping its position in the order. */
  replace(record: T): T {
    const seq = this.seqById.get(record.id);
    if (seq === undefined) throw new Error(`no record ${record.id}`);
    this.bySeq.set(seq, record);
    return record;
  }

  delete(id: string): T | undefined {
    const seq = this.seqById.get(id);
    if (seq === undefined) return undefined;
    const record = this.bySeq.get(seq);
    this.seqById.delete(id);
    this.bySeq.delete(seq);
    return record;
  }

  find(predicate: (record: T) => boolean): T | undefined {
    for (const record of this.bySeq.values()) if (predicate(record)) return record;
    return undefined;
  }

  filter(predicate: (record: T) => boolean): T[] {
    const out: T[] = [];
    for (const record of this.bySeq.values()) if (predicate(record)) out.push(record);
    return out;
  }

  /** Oldest first. */
  values(): T[] {
    return this.bySeq.valuesArray();
  }

  /** Newest first, starting after `startingAfter`; `undefined` when the cursor is not in this collection. */
  page(request: PageRequest<T>): Page<T> | undefined {
    let iterator: IterableIterator<[number, T]>;
    if (request.startingAfter !== undefined) {
      const seq = this.seqById.get(request.startingAfter);
      if (seq === undefined) return undefined;
      iterator = this.bySeq.entriesReversed(seq, undefined, true);
    } else {
      iterator = this.bySeq.entriesReversed();
    }
    const data: T[] = [];
    for (const [, record] of iterator) {
      if (request.filter && !request.filter(record)) continue;
      if (data.length === request.limit) return { data, hasMore: true };
      data.push(record);
    }
    return { data, hasMore: false };
  }
}
