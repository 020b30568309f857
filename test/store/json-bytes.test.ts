import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes, writesAsIs } from '../../src/store/json-bytes.js';

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

describe('weighing a string: each escape found wherever it stands', () => {
  const long = 'x'.repeat(70_000);
  const cases: Array<[string, string]> = [
    ['quotes only', '"'.repeat(5)],
    ['backslashes only', '\\'.repeat(7)],
    ['a quote first and a backslash last of a long text', `"${long}\\`],
    ['every C0 control', Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).join('')],
    ['a control after quotes and backslashes', `a"b\\c${long}\u0001d\ne`],
    ['a control first', `\u0000${long}`],
    ['a control last', `${long}\u001f`],
    ['DEL and the C1 range, written as they are', '\u007f\u0080\u009f'],
    ['a lone high half at the end', `${long}\ud83d`],
    ['a lone low half at the start', `\ude00${long}`],
    ['lone halves of both kinds between pairs', '\ud83d\ude00\ud83d\ud83d\ude00\ude00\ude00\ud83d'],
    ['astral characters only', '\ud834\udd1e\ud83d\ude00'.repeat(1000)],
    ['astral characters beside escapes and two-byte text', `€"\ud834\udd1e\\\n${long}é`],
    ['a megabyte of plain ASCII', 'x'.repeat(1_040_000)],
  ];
  for (const [name, text] of cases) {
    it(`${name}: the UTF-8 bytes JSON.stringify writes`, () => {
      expect(jsonBytes(text)).toBe(expected(text));
      // The same text as a member's name and value.
      expect(jsonBytes({ [text]: text })).toBe(expected({ [text]: text }));
    });
  }
});

describe('the last long text weighed is remembered by its content, never by its length', () => {
  it('two long texts of one length, one needing escapes, weigh and write each as its own', () => {
    const long = 'y'.repeat(40_000);
    const texts = [`${long}"`, `${long}x`, `${long}\n`, `${long}\ud800`, `${long}x`, `${long}\\`];
    for (const text of texts) {
      expect(jsonBytes(text)).toBe(expected(text));
      expect(writesAsIs(text)).toBe(JSON.stringify(text) === `"${text}"`);
      expect(writesAsIs(text)).toBe(JSON.stringify(text) === `"${text}"`);
    }
  });
});
