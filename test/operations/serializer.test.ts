/**
 * Success bodies are written by serializers compiled from the response schemas
 * (src/operations/serializer.ts); their bytes must be JSON.stringify's. The whole suite runs with
 * CCM_VERIFY_SERIALIZATION=1, so every answer a test receives is checked as well; this file checks the
 * schemas themselves and the check's own failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSerializer, serializationSchema, successSerializer } from '../../src/operations/serializer.js';
import { defineOperation } from '../../src/operations/types.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { arbitraryFor, UnsupportedSchemaError } from '../support/arbitraries.js';
import { createAppWithOperations } from '../../src/app.js';
import { client, expectError, FROZEN_AT, KEYS } from '../support/harness.js';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...extra,
});

describe('what the compiled serializer is told of a schema', () => {
  it("keeps a closed object's properties, without required or combinators", () => {
    const schema = closed(
      { id: { type: 'string', pattern: '^x_' }, n: { type: 'integer', minimum: 0 } },
      { allOf: [{ if: {}, then: {} }] },
    );
    expect(serializationSchema(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { id: { type: 'string' }, n: { type: 'integer' } },
    });
  });

  it('leaves open objects, unions and typeless values to JSON.stringify ({})', () => {
    expect(serializationSchema({ type: 'object', description: 'metadata' })).toEqual({});
    expect(serializationSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({});
    expect(serializationSchema({ anyOf: [closed({ a: { type: 'string' } }), { type: 'null' }] })).toEqual({});
    expect(serializationSchema({ type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] })).toEqual({});
    expect(serializationSchema({ const: 'widget' })).toEqual({});
  });

  it("keeps arrays' items, scalar types (nullable ones too) and reads a string enum as a string", () => {
    expect(serializationSchema({ type: 'array', items: { type: ['string', 'null'] } })).toEqual({
      type: 'array',
      items: { type: ['string', 'null'] },
    });
    expect(serializationSchema({ enum: ['free', 'paid'] })).toEqual({ type: 'string' });
    expect(serializationSchema({ enum: ['free', 1] })).toEqual({});
  });
});

const isPlainObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

describe('serializers of the operation table', () => {
  it('compile for every operation (lazily at run time, so a broken one must fail here)', () => {
    for (const op of OPERATIONS) expect(() => compileSerializer(op.success.schema), op.operationId).not.toThrow();
  });

  it('write exactly what JSON.stringify writes, for any body their schema allows', () => {
    const covered: string[] = [];
    for (const op of OPERATIONS) {
      let bodies: fc.Arbitrary<unknown>;
      try {
        bodies = arbitraryFor(op.success.schema, { maxStringLength: 40 });
      } catch (error) {
        // The arbitraries cover request schemas; a response schema beyond them is checked by the suite's answers.
        if (error instanceof UnsupportedSchemaError) continue;
        throw error;
      }
      const serialize = compileSerializer(op.success.schema);
      fc.assert(
        fc.property(bodies, (body) => serialize(body) === JSON.stringify(body)),
        { numRuns: 50 },
      );
      covered.push(op.operationId);
    }
    expect(covered.length, covered.join(', ')).toBeGreaterThanOrEqual(OPERATIONS.length - 1);
  });

  it('leave bodies holding an array (lists) to JSON.stringify, which is faster on long bodies', () => {
    const serialize = compileSerializer(
      closed({ object: { type: 'string' }, data: { type: 'array', items: closed({ id: { type: 'string' } }) } }),
    );
    // A compiled function would drop what the closed schemas do not list; JSON.stringify keeps it.
    const body = { object: 'list', data: [{ id: 'x_1', extra: 1 }], more: true };
    expect(serialize(body)).toBe(JSON.stringify(body));
  });

  it('keep what an open part holds (metadata-like objects) and leave out undefined properties', () => {
    const serialize = compileSerializer(
      closed({ id: { type: 'string' }, metadata: { type: 'object' }, note: { type: ['string', 'null'] } }),
    );
    const body = { id: 'x_1', metadata: { team: 'support', nested: { a: [1, 'two', null] } }, note: undefined };
    expect(serialize(body)).toBe(JSON.stringify(body));
  });

  // The compiler is ours (fast-json-stringify cost start-up time): the strings, numbers and strays JSON.stringify writes its own way.
  it("write every value of a listed property as JSON.stringify does, whatever the schema's type says", () => {
    const serialize = compileSerializer(
      closed({
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        nested: closed({ a: { type: 'string' }, 'quote"and\\backslash': { type: 'string' } }),
      }),
    );
    const strings = [
      '',
      'plain',
      'quote"',
      'back\\slash',
      'tab\t',
      '\u0000\u001f',
      '\u2028\u2029',
      'é',
      '😀',
      '\ud800',
      'x\udfff',
      'a'.repeat(65),
      `${'a'.repeat(70)}"`,
    ];
    const numbers = [0, -0, 1.5, -1e21, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity];
    const strays = [null, true, false, 'text', 7, [], [1, 'a'], {}, { x: 1 }, () => 1, Symbol('s'), undefined];
    const bodies: Record<string, unknown>[] = [
      ...strings.map((s) => ({ s, nested: { a: s, 'quote"and\\backslash': s } })),
      ...numbers.map((n) => ({ n, i: n })),
      // (An object in place of `nested` is left out: its unlisted properties are the documented difference.)
      ...strays.flatMap((v) => [{ s: v, n: v, i: v, b: v }, { nested: { a: v } }, ...(isPlainObject(v) ? [] : [{ nested: v }])]),
      { b: true, nested: null },
      {},
    ];
    for (const body of bodies) expect(serialize(body), String(JSON.stringify(body))).toBe(JSON.stringify(body));
  });

  it('write what is not a plain object (a Date, a boxed string, a toJSON, another prototype) as JSON.stringify does, toJSON keys included', () => {
    const serialize = compileSerializer(closed({ s: { type: 'string' }, nested: closed({ a: { type: 'string' } }) }));
    const keyed = { toJSON: (key: string) => `key=${key}` };
    const bodies: unknown[] = [
      { nested: new Date(0) },
      { nested: { a: 'x', toJSON: () => 'replaced' } },
      { nested: { a: 'x', toJSON: () => undefined } },
      { nested: new String('abc') },
      { nested: Object.create({ a: 'inherited' }) as object },
      { nested: Object.assign(Object.create(null) as object, { a: 'no prototype' }) },
      { s: keyed, nested: { a: keyed } },
      { s: new Date(0), nested: { a: new Number(5) } },
      Object.create({ s: 'inherited' }) as object,
      { s: 'top', toJSON: (key: string) => ({ s: `top-level key '${key}'` }) },
    ];
    for (const body of bodies) expect(serialize(body), String(JSON.stringify(body))).toBe(JSON.stringify(body));
    // A toJSON on BigInt.prototype (a common polyfill) is called with the property's key.
    const prototype = BigInt.prototype as unknown as { toJSON?: (key: string) => string };
    prototype.toJSON = function (this: bigint, key: string) {
      return `${this.toString()}@${key}`;
    };
    try {
      expect(serialize({ s: 10n, nested: { a: 20n } })).toBe(JSON.stringify({ s: 10n, nested: { a: 20n } }));
    } finally {
      delete prototype.toJSON;
    }
    expect(() => serialize({ s: 10n })).toThrow(TypeError);
  });

  it('compile a property name only as data, never as code', () => {
    const name = "x']; throw new Error('injected'); //";
    const serialize = compileSerializer(closed({ [name]: { type: 'string' } }));
    expect(serialize({ [name]: 'v' })).toBe(JSON.stringify({ [name]: 'v' }));
  });
});

describe('the JSON.stringify check (CCM_VERIFY_SERIALIZATION=1, set for this suite)', () => {
  const strict = defineOperation({
    operationId: 'testStrictGadget',
    method: 'GET',
    path: '/test-gadget',
    tag: 'Test',
    specSection: '4.13',
    summary: 'A body its schema does not describe',
    description: 'Answers a property its closed schema does not list.',
    success: { status: 200, description: 'A gadget.', schema: closed({ id: { type: 'string' } }) },
    errors: [401, 500],
    handler: () => ({ body: { id: 'gad_1', extra: true } }),
  });

  it('is on in this suite', () => {
    expect(process.env.CCM_VERIFY_SERIALIZATION).toBe('1');
  });

  it('names the operation whose body strays from its schema', () => {
    expect(() => successSerializer(strict)({ id: 'gad_1', extra: true })).toThrow(
      /testStrictGadget: the compiled serializer wrote \{"id":"gad_1"\} where JSON.stringify writes/,
    );
  });

  it('answers such a request with a 500 in the envelope, not a dropped property', async () => {
    const res = await client(createAppWithOperations({ clock: FROZEN_AT }, [...OPERATIONS, strict]))
      .get('/v1/test-gadget')
      .set('Authorization', `Bearer ${KEYS.free}`);
    expectError(res, 'internal_error');
  });
});
