/**
 * The weight the byte budgets count a kept string at bounds both its UTF-8 size and V8's memory for
 * it: one character outside Latin-1 makes V8 keep the whole string two bytes a unit.
 */
import { describe, expect, it } from 'vitest';
import { weighText } from '../../src/protocol/text-bytes.js';

describe('the weight of a kept string', () => {
  it('is its length for long ASCII text', () => {
    expect(weighText('x'.repeat(60_000))).toBe(60_000);
  });

  it('is at least two bytes a unit once one character is not Latin-1', () => {
    const text = `${'x'.repeat(60_000)}€`;
    expect(weighText(text)).toBeGreaterThanOrEqual(2 * text.length);
  });

  it('is at least the UTF-8 size whatever the text', () => {
    for (const text of ['é'.repeat(5_000), '😀'.repeat(5_000), '€'.repeat(5_000), 'short €']) {
      expect(weighText(text)).toBeGreaterThanOrEqual(Buffer.byteLength(text));
    }
  });
});
