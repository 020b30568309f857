import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/store/json-bytes.js';

const expected = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');

describe('the JSON byte count of a record, without its text', () => {
  it('equals the UTF-8 bytes of JSON.stringify for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonBytes(value)).toBe(expected(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts escapes, lone surrogates, pairs, undefined members and holes as JSON.stringify writes them', () => {
    const samples: unknown[] = [
      '"\\\b\t\n\f\r\u0000\u001f\u007f',
      '\ud83d\ude00 a pair, \ud83d alone, \ude00 alone, \udc00\ud800 reversed',
      'é€ 𝄞',
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      [undefined, () => 1, null, -0, 1e21, 1.5e-7],
      { date: new Date(0), nan: Number.NaN, inf: -Infinity },
      Object.assign(Object.create(null) as object, { x: 'y' }),
      { toJSON: () => 'replaced' },
      {},
      [],
      '',
    ];
    for (const value of samples) expect(jsonBytes(value), JSON.stringify(value)).toBe(expected(value));
    expect(jsonBytes(undefined)).toBe(0);
  });

  it('counts arbitrary strings, lone surrogates included, exactly', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        (a, b) => {
          expect(jsonBytes({ [a]: b, b: [a] })).toBe(expected({ [a]: b, b: [a] }));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
