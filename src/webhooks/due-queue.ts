/**
 * Items ordered by the virtual instant they are due (ties in insertion order): "everything due by t"
 * in O(log n + k) and the earliest in O(log n), which is all the timer needs to arm itself.
 */
import { BTree } from '../store/btree.js';

type Key = readonly [at: number, seq: number];
const compare = (a: Key, b: Key): number => a[0] - b[0] || a[1] - b[1];

export class DueQueue<T> {
  private readonly tree = new BTree<Key, T>(undefined, compare);
  private readonly keys = new Map<T, Key>();
  private seq = 0;

  get size(): number {
    return this.keys.size;
  }

  /** Puts `item` at `at` (moving it if it was queued already). */
  add(at: number, item: T): void {
    this.delete(item);
    const key: Key = [at, this.seq++];
    this.keys.set(item, key);
    this.tree.set(key, item);
  }

  delete(item: T): void {
    const key = this.keys.get(item);
    if (!key) return;
    this.keys.delete(item);
    this.tree.delete(key);
  }

  /** Items due by `at`, in order; a snapshot, so callers may delete while iterating. */
  upTo(at: number): T[] {
    const out: T[] = [];
    this.tree.forRange([Number.NEGATIVE_INFINITY, -1], [at, Number.POSITIVE_INFINITY], true, (_key, item) => {
      out.push(item);
    });
    return out;
  }

  /** The earliest due instant, or undefined when empty. */
  firstAt(): number | undefined {
    return this.tree.minKey()?.[0];
  }
}
