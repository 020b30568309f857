import { describe, expect, it } from 'vitest';
import { formatByteSize, parseByteSize } from '../../src/config/byte-size.js';

describe('byte sizes of the budgets (README "Budgets")', () => {
  it.each([
    [0, 0],
    [4096, 4096],
    ['4096', 4096],
    ['64KiB', 65536],
    ['64 kib', 65536],
    ['64K', 65536],
    ['64kb', 65536],
    ['16MiB', 16 * 1024 ** 2],
    ['16M', 16 * 1024 ** 2],
    ['1GiB', 1024 ** 3],
    ['12B', 12],
  ])('reads %j as %d bytes', (value, bytes) => {
    expect(parseByteSize(value)).toBe(bytes);
  });

  it.each([-1, 1.5, Number.NaN, '', 'lots', '1.5MiB', '-3', '10TiB', '9'.repeat(30), null, {}, 'toString'])('refuses %j', (value) => {
    expect(parseByteSize(value)).toBeUndefined();
  });

  it('formats sizes for messages', () => {
    expect(formatByteSize(512)).toBe('512 B');
    expect(formatByteSize(1536)).toBe('1.5 KiB');
    expect(formatByteSize(64 * 1024)).toBe('64 KiB');
    expect(formatByteSize(16 * 1024 ** 2)).toBe('16 MiB');
    expect(formatByteSize(1024 ** 3)).toBe('1 GiB');
  });
});
