import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/operations/types.js';
import { compileSchema } from '../../src/operations/validation.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { arbitraryFor, UnsupportedSchemaError, wrongTypeFor } from '../support/arbitraries.js';

const SUBSET: Array<[string, JsonSchema]> = [
  ['a prefixed id', { type: 'string', pattern: '^inbox_[A-Za-z0-9_]+$' }],
  ['a bounded string', { type: 'string', minLength: 3, maxLength: 5 }],
  ['a nullable name', { type: ['string', 'null'], maxLength: 255 }],
  ['a date-time', { type: 'string', format: 'date-time' }],
  ['a uri', { type: 'string', format: 'uri' }],
  ['an email', { type: 'string', format: 'email' }],
  ['bounded integers', { type: 'integer', minimum: 1, maximum: 100 }],
  ['exclusive numbers', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['multiples', { type: 'integer', minimum: 0, maximum: 1000, multipleOf: 25 }],
  ['an enum', { enum: ['zoom', 'google_meet', 'custom_link', 'physical_address'] }],
  ['a const', { const: 'list' }],
  [
    'a closed object with required fields',
    {
      type: 'object',
      additionalProperties: false,
      required: ['title', 'capacity'],
      properties: { title: { type: 'string', minLength: 1 }, capacity: { type: 'integer', minimum: 1 }, allow_rsvp: { type: 'boolean' } },
    },
  ],
  ['a free-form map', { type: 'object', additionalProperties: { type: 'string', maxLength: 10 } }],
  ['a unique array', { type: 'array', items: { enum: ['a', 'b', 'c', 'd'] }, minItems: 1, maxItems: 3, uniqueItems: true }],
  ['a nullable union', { anyOf: [{ type: 'null' }, { type: 'string', format: 'email' }] }],
  ['a union of formats beside a type', { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }],
  ['a bounded map', { type: 'object', maxProperties: 2, additionalProperties: { type: 'string' } }],
  [
    'an object with at least one member',
    { type: 'object', minProperties: 1, properties: { a: { type: 'boolean' }, b: { type: 'boolean' } } },
  ],
  ['a regular pattern', { type: 'string', pattern: '^[A-Za-z]{3}$' }],
  ['an exclusive union', { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^cus_' }] }],
];

describe('JSON Schema -> fast-check arbitraries', () => {
  it.each(SUBSET)('generates only valid values: %s', (_name, schema) => {
    const validate = compileSchema(schema);
    fc.assert(
      fc.property(arbitraryFor(schema), (value) => validate(value) === true),
      { numRuns: 200 },
    );
  });

  it.each(SUBSET)('wrongTypeFor generates only invalid values: %s', (_name, schema) => {
    const validate = compileSchema(schema);
    const wrong = wrongTypeFor(schema);
    if (!wrong) return expect(schema.type ?? schema.enum ?? schema.const).toBeUndefined();
    fc.assert(
      fc.property(wrong, (value) => validate(value) === false),
      { numRuns: 100 },
    );
  });

  it('covers every request schema the operation table declares', () => {
    for (const op of OPERATIONS) {
      for (const schema of [op.params, op.query, op.body]) {
        if (!schema) continue;
        const validate = compileSchema(schema);
        fc.assert(
          fc.property(arbitraryFor(schema), (value) => validate(value) === true),
          { numRuns: 50 },
        );
      }
    }
  });

  it('refuses a keyword outside the subset, naming it', () => {
    expect(() => arbitraryFor({ type: 'object', properties: { a: { type: 'string', propertyNames: {} } } })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => arbitraryFor({ type: 'string', not: { const: 'x' } })).toThrow(/"not" at \//);
    expect(() => arbitraryFor({ type: 'string', format: 'iri-reference' })).toThrow(/format "iri-reference"/);
  });

  it('lets an override replace a node, given its path', () => {
    const schema: JsonSchema = { type: 'object', required: ['form_id'], properties: { form_id: { type: 'string', pattern: '^form_' } } };
    const seen: string[] = [];
    const arbitrary = arbitraryFor(schema, {
      override: (_node, path) => {
        seen.push(path.join('.'));
        return path.join('.') === 'form_id' ? fc.constant('form_known') : undefined;
      },
    });
    expect(fc.sample(arbitrary, 5)).toEqual(Array(5).fill({ form_id: 'form_known' }));
    expect(seen).toEqual(['', 'form_id']);
  });
});
