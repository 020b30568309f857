/**
 * The answer of a large body is JSON.stringify's text exactly (idempotent replays, determinism and
 * the event that shares it depend on it), written with its long strings copied once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largeJson, LONG_STRING, WALKED_MEMBERS } from '../../src/operations/large-json.js';

const long = (text: string) => text.repeat(Math.ceil(LONG_STRING / text.length) + 1);

describe("the text of a large answer is JSON.stringify's", () => {
  it('for any JSON value, with long strings among short ones', () => {
    const longStrings = fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }).map(long),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).map(long),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 4 }).map(long),
    );
    const values = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), longStrings, tie('object'), tie('array')),
      object: fc.dictionary(fc.string(), tie('value'), { maxKeys: 6 }),
      array: fc.array(tie('value'), { maxLength: 6 }),
    })).value;
    fc.assert(
      fc.property(values, (value) => largeJson(value) === JSON.stringify(value)),
      { numRuns: 300 },
    );
  });

  it('for long strings that need escapes: quotes, backslashes, controls, lone surrogates of both halves, astral characters', () => {
    const texts = [
      long('plain'),
      long('é€'),
      long('\ud834\udd1e'),
      `${long('x')}"`,
      `\\${long('x')}`,
      `${long('x')}\n`,
      `\u0000${long('x')}`,
      `${long('x')}\ud83d`,
      `\ude00${long('x')}`,
      `${long('x')}\u2028\u2029`,
    ];
    for (const text of texts) {
      const body = { id: 'inbox_1', metadata: { [text.slice(0, 20)]: text, note: text }, list: [text, undefined, null] };
      expect(largeJson(body)).toBe(JSON.stringify(body));
      expect(largeJson(text)).toBe(JSON.stringify(text));
    }
  });

  it('for what JSON.stringify writes its own way: undefined, functions, symbols, toJSON with its key, boxed values, other prototypes, non-finite numbers', () => {
    const big = long('x');
    class Other {
      constructor(readonly text: string) {}
    }
    const body = {
      u: undefined,
      f: () => 1,
      s: Symbol('s'),
      date: new Date(0),
      keyed: { toJSON: (key: string) => `key ${key}` },
      boxed: [Object(big) as object, Object(1) as object, Object(true) as object],
      other: new Other(big),
      nulls: [undefined, () => 1, Symbol('t')],
      numbers: [NaN, Infinity, -0, 1e21, 1.5e-7],
      nullProto: Object.assign(Object.create(null) as object, { big }),
      arrayWithToJSON: Object.assign([big], { toJSON: () => 'array' }),
      big,
    };
    expect(largeJson(body)).toBe(JSON.stringify(body));
    expect(largeJson(undefined)).toBeUndefined();
    expect(largeJson(() => 1)).toBeUndefined();
    expect(largeJson({ toJSON: () => undefined })).toBe(JSON.stringify({ toJSON: () => undefined }));
  });

  it('for bodies past what it walks by hand (many members, deep), which JSON.stringify writes', () => {
    const wide = Object.fromEntries(Array.from({ length: WALKED_MEMBERS * 2 }, (_, i) => [`k${i}`, i % 3 === 0 ? long('w') : i]));
    const many = Array.from({ length: WALKED_MEMBERS + 1 }, (_, i) => ({ i, text: long('a') }));
    let deep: unknown = long('d');
    for (let i = 0; i < 100; i++) deep = { [`level${i}`]: deep, i };
    for (const body of [wide, many, deep, { wide, many, deep }]) expect(largeJson(body)).toBe(JSON.stringify(body));
  });

  it('throws where JSON.stringify throws: a cycle, a bigint', () => {
    const cyclic: Record<string, unknown> = { big: long('c') };
    cyclic.self = cyclic;
    expect(() => largeJson(cyclic)).toThrow(TypeError);
    expect(() => largeJson({ n: 1n })).toThrow(TypeError);
  });
});
