/** The index behind the ledger of unfinished jobs and the webhook queues: "everything due by t" without a scan. */
import { describe, expect, it } from 'vitest';
import { OrderedIndex } from '../../src/store/ordered-index.js';

describe('OrderedIndex', () => {
  it('returns the values due by an instant in key order, ties by insertion, and forgets deleted ones', () => {
    const index = new OrderedIndex<string>();
    index.add(30, 'c');
    index.add(10, 'a');
    index.add(20, 'b1');
    index.add(20, 'b2');
    index.add(40, 'd');
    expect(index.upTo(5)).toEqual([]);
    expect(index.upTo(20)).toEqual(['a', 'b1', 'b2']);
    index.delete('b1');
    expect(index.upTo(30)).toEqual(['a', 'b2', 'c']);
    expect(index.all()).toEqual(['a', 'b2', 'c', 'd']);
    expect(index.size).toBe(4);
  });

  it('lets callers delete while walking a due list (it is a snapshot)', () => {
    const index = new OrderedIndex<number>();
    for (let i = 0; i < 100; i++) index.add(i, i);
    for (const v of index.upTo(49)) index.delete(v);
    expect(index.size).toBe(50);
    expect(index.upTo(1000)[0]).toBe(50);
  });

  it('put moves a value to its new key (last among equals) and firstAt tracks the earliest key, for the webhook timer', () => {
    const index = new OrderedIndex<string>();
    expect(index.firstAt()).toBeUndefined();
    index.put(20, 'a');
    index.put(20, 'b');
    index.put(10, 'c');
    expect(index.firstAt()).toBe(10);
    index.put(20, 'c');
    expect(index.upTo(20)).toEqual(['a', 'b', 'c']);
    expect(index.size).toBe(3);
    index.put(5, 'b');
    expect(index.firstAt()).toBe(5);
    expect(index.all()).toEqual(['b', 'a', 'c']);
  });
});
