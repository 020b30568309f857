/**
 * Records ordered by a numeric key (ties by insertion), for "everything due by t" queries in
 * O(log n + k) and the earliest key in O(log n). Backs the webhook queues (deliveries by next
 * attempt) and the accounts due per clock, whose timer arms itself at `firstAt()`.
 */
import { BTree } from './btree.js';

type Key = readonly [at: number, seq: number];
const compare = (a: Key, b: Key): number => a[0] - b[0] || a[1] - b[1];

export class OrderedIndex<T> {
  private readonly tree = new BTree<Key, T>(undefined, compare);
  private readonly keys = new Map<T, Key>();
  private seq = 0;

  get size(): number {
    return this.keys.size;
  }

  /** Adds `value` at `at`; false (and nothing changes) when it is already in the index. */
  add(at: number, value: T): boolean {
    if (this.keys.has(value)) return false;
    const key: Key = [at, this.seq++];
    this.keys.set(value, key);
    this.tree.set(key, value);
    return true;
  }

  /** Puts `value` at `at`, moving it (to the end of its new tie) when it is in the index already. */
  put(at: number, value: T): void {
    this.delete(value);
    this.add(at, value);
  }

  delete(value: T): void {
    const key = this.keys.get(value);
    if (!key) return;
    this.keys.delete(value);
    this.tree.delete(key);
  }

  /** Values with key <= `at`, in key order; a snapshot, so callers may delete while iterating. */
  upTo(at: number): T[] {
    const out: T[] = [];
    this.tree.forRange([Number.NEGATIVE_INFINITY, -1], [at, Number.POSITIVE_INFINITY], true, (_key, value) => {
      out.push(value);
    });
    return out;
  }

  /** The smallest key, or undefined when empty. */
  firstAt(): number | undefined {
    return this.tree.minKey()?.[0];
  }

  all(): T[] {
    return this.tree.valuesArray();
  }
}
