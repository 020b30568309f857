/** The snapshot's text (contract §5.3): JSON.stringify's bytes, refused past a byte budget before it is all built. */
import { describe, expect, it } from 'vitest';
import { boundedJson, OverBudget } from '../../src/snapshot/bounded-json.js';

describe('boundedJson', () => {
  const value = { b: 1, a: [{ z: 'é', y: null, skipped: undefined }, 'x', undefined], nested: { q: [1, 2], r: true }, gone: undefined };

  it('writes what JSON.stringify writes, members in the order they hold', () => {
    expect(boundedJson(value)).toBe(JSON.stringify(value));
  });

  it('§5.3 bounded: stops with OverBudget once the UTF-8 bytes pass the budget', () => {
    const text = JSON.stringify(value);
    expect(boundedJson(value, Buffer.byteLength(text))).toBe(text);
    expect(() => boundedJson(value, Buffer.byteLength(text) - 1)).toThrow(OverBudget);
  });
});
