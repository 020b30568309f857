/**
 * The process-wide home of derived seeded records (only what a tenant changes is its own): an
 * account that reads its seeded collections but never writes them is answered from here, so it
 * holds none of them itself. Bounded: the least recently read account's records go first, and are
 * derived again (byte-identical, since derivation is a pure function of seed, account, template and
 * creation instant) when next read.
 */

/** Least-recently-used map with a fixed capacity; keys are compared by identity. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value of `key`, made by `make` on a miss; either way it becomes the most recently used. */
  get(key: K, make: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = make();
      if (this.entries.size >= this.capacity) {
        // A Map iterates in insertion order and a hit re-inserts its key, so the first key is the coldest.
        const coldest = this.entries.keys().next();
        if (coldest.done !== true) this.entries.delete(coldest.value);
      }
    } else {
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

/**
 * Freezes `value` and everything it holds. Cached records are frozen so that a write that bypasses
 * `AccountStore.write` (a handler changing a record it only read) throws instead of changing a copy
 * that the next eviction silently throws away.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value as object)) deepFreeze(member);
  }
  return value;
}

/**
 * A deep copy of a (frozen) record that can be changed: what an account's first write to a seeded
 * collection takes from the cached derivation. Each object keeps its prototype (the maps users key
 * are null-prototype objects, and must stay so), and a member named `__proto__` stays a member.
 */
export function thawedCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(thawedCopy) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const [key, member] of Object.entries(value)) {
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: thawedCopy(member), writable: true, enumerable: true, configurable: true });
    else copy[key] = thawedCopy(member);
  }
  return copy as T;
}

/** How many accounts' derived records the process keeps: ~80 KiB each at the default counts. */
export const DERIVED_CACHE_CAPACITY = 32;
