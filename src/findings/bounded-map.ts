/** A Map that keeps at most `max` entries: setting a new key past it drops the least recently set. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(
    private readonly max: number,
    /** Told of each entry dropped to keep the bound (not of `delete`s). */
    private readonly onDrop?: (key: K, value: V) => void,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    // Moved to the end: the least recently set is first.
    super.delete(key);
    super.set(key, value);
    if (this.size > this.max) {
      const [oldest, dropped] = this.entries().next().value as [K, V];
      super.delete(oldest);
      this.onDrop?.(oldest, dropped);
    }
    return this;
  }
}
