/**
 * Accounts (or anything) by weight, the heaviest first: what a sandbox-wide byte ceiling evicts
 * from, so that one tenant's flood is paid by that tenant and a light neighbour's entries survive
 * (the idempotency total budget, the delivery log's sandbox budget). An indexed binary heap: a
 * change of weight and a look at the heaviest cost O(log n) and O(1), never a walk of every account.
 *
 * Among equal weights, the one whose weight last changed longest ago comes first: tenants writing
 * alike give up their entries in the order they wrote them.
 */
interface Slot<T> {
  readonly item: T;
  weight: number;
  stamp: number;
  index: number;
}

export class HeaviestFirst<T> {
  private readonly heap: Slot<T>[] = [];
  private readonly slots = new Map<T, Slot<T>>();
  private changes = 0;

  get size(): number {
    return this.heap.length;
  }

  /** The heaviest item (weight above 0), or undefined. */
  heaviest(): T | undefined {
    return this.heap[0]?.item;
  }

  weightOf(item: T): number {
    return this.slots.get(item)?.weight ?? 0;
  }

  /** Sets `item`'s weight; 0 or less takes it out. */
  set(item: T, weight: number): void {
    let slot = this.slots.get(item);
    if (weight <= 0) {
      if (slot) this.remove(slot);
      return;
    }
    const stamp = this.changes++;
    if (!slot) {
      slot = { item, weight, stamp, index: this.heap.length };
      this.slots.set(item, slot);
      this.heap.push(slot);
      this.up(slot.index);
      return;
    }
    const heavier = weight > slot.weight;
    slot.weight = weight;
    slot.stamp = stamp;
    if (heavier) this.up(slot.index);
    else this.down(slot.index);
  }

  delete(item: T): void {
    const slot = this.slots.get(item);
    if (slot) this.remove(slot);
  }

  private remove(slot: Slot<T>): void {
    this.slots.delete(slot.item);
    const last = this.heap.pop()!;
    if (last === slot) return;
    this.heap[slot.index] = last;
    last.index = slot.index;
    this.up(last.index);
    this.down(last.index);
  }

  /** Whether `a` goes before `b`: heavier, or as heavy and unchanged for longer. */
  private before(a: Slot<T>, b: Slot<T>): boolean {
    return a.weight > b.weight || (a.weight === b.weight && a.stamp < b.stamp);
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(heap[index]!, heap[parent]!)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let first = index;
      if (left < heap.length && this.before(heap[left]!, heap[first]!)) first = left;
      if (right < heap.length && this.before(heap[right]!, heap[first]!)) first = right;
      if (first === index) return;
      this.swap(index, first);
      index = first;
    }
  }

  private swap(i: number, j: number): void {
    const heap = this.heap;
    const a = heap[i]!;
    const b = heap[j]!;
    heap[i] = b;
    heap[j] = a;
    a.index = j;
    b.index = i;
  }
}
