/** The heap the sandbox-wide byte ceilings evict from (src/store/heaviest-first.ts): the heaviest first, ties by the oldest change. */
import { describe, expect, it } from 'vitest';
import { HeaviestFirst } from '../../src/store/heaviest-first.js';
import { Prng } from '../../src/random.js';

describe('HeaviestFirst', () => {
  it('always gives the heaviest, the one unchanged longest among equals, through thousands of random changes', () => {
    const heap = new HeaviestFirst<string>();
    const weights = new Map<string, { weight: number; stamp: number }>();
    const prng = new Prng('heaviest-first');
    for (let step = 0; step < 5_000; step++) {
      const item = `a${prng.nextUint32() % 200}`;
      const weight = prng.nextUint32() % 10 === 0 ? 0 : prng.nextUint32() % 50;
      heap.set(item, weight);
      if (weight <= 0) weights.delete(item);
      else weights.set(item, { weight, stamp: step });
      let expected: string | undefined;
      let best: { weight: number; stamp: number } | undefined;
      for (const [name, entry] of weights) {
        if (!best || entry.weight > best.weight || (entry.weight === best.weight && entry.stamp < best.stamp))
          [expected, best] = [name, entry];
      }
      expect(heap.heaviest()).toBe(expected);
      expect(heap.size).toBe(weights.size);
    }
  });

  it('takes an item out when its weight drops to 0 or it is deleted', () => {
    const heap = new HeaviestFirst<string>();
    heap.set('a', 5);
    heap.set('b', 3);
    heap.delete('a');
    expect(heap.heaviest()).toBe('b');
    heap.set('b', 0);
    expect([heap.heaviest(), heap.size, heap.weightOf('b')]).toEqual([undefined, 0, 0]);
  });
});
