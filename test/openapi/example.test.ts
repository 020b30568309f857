import { describe, expect, it } from 'vitest';
import { exampleFromSchema, idPrefixOf } from '../../src/openapi/example.js';
import { exampleForPattern } from '../../src/openapi/pattern-example.js';
import { compileSchema } from '../../src/operations/validation.js';
import type { JsonSchema } from '../../src/operations/types.js';

const cases: Array<[string, JsonSchema]> = [
  ['a prefixed id', { type: 'string', pattern: '^inbox_[A-Za-z0-9_]+$' }],
  ['a bounded string', { type: 'string', minLength: 20, maxLength: 30 }],
  ['a short string', { type: 'string', maxLength: 2 }],
  ['a nullable timestamp', { type: ['string', 'null'], format: 'date-time' }],
  [
    'a uri and an email',
    { type: 'object', properties: { url: { type: 'string', format: 'uri' }, to: { type: 'string', format: 'email' } } },
  ],
  [
    'bounded numbers',
    { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 9 }, x: { type: 'number', maximum: -3 } } },
  ],
  ['an enum and a const', { type: 'object', properties: { e: { enum: [null, 'week', 'month'] }, c: { const: 'list' } } }],
  ['an array with minItems', { type: 'array', minItems: 2, items: { type: 'boolean' } }],
  ['a nullable union', { anyOf: [{ type: 'null' }, { type: 'string', pattern: '^cus_[A-Za-z0-9]+$' }] }],
  ['a free-form map', { type: 'object', additionalProperties: { type: 'string' } }],
  ['a Message-ID pattern', { type: 'string', pattern: '^<[^<>@]+@[^<>@]+>$' }],
  ['a currency pattern', { type: 'string', pattern: '^[A-Za-z]{3}$' }],
  ['formats beside a union', { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }],
  [
    'type-specific details chosen by if/then',
    {
      type: 'object',
      required: ['type', 'details'],
      properties: { type: { enum: ['event', 'link'] }, details: { type: 'object' } },
      allOf: [
        {
          if: { properties: { type: { const: 'link' } } },
          then: { properties: { details: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } } },
        },
        {
          if: { properties: { type: { const: 'event' } } },
          then: {
            properties: { details: { type: 'object', required: ['capacity'], properties: { capacity: { type: 'integer', minimum: 1 } } } },
          },
        },
      ],
    },
  ],
];

describe('exampleFromSchema', () => {
  it.each(cases)('makes an example that validates: %s', (_name, schema) => {
    const validate = compileSchema(schema);
    const example = exampleFromSchema(schema);
    expect(validate(example), JSON.stringify({ example, errors: validate.errors })).toBe(true);
  });

  it('prefers the declaration’s own example, then const, enum and default', () => {
    expect(exampleFromSchema({ type: 'string', example: 'given' })).toBe('given');
    expect(exampleFromSchema({ const: 3 })).toBe(3);
    expect(exampleFromSchema({ enum: ['a', 'b'] })).toBe('a');
    expect(exampleFromSchema({ type: 'integer', default: 15 })).toBe(15);
  });

  it('is deterministic', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^key_' }, at: { type: 'string', format: 'date-time' } },
    };
    expect(exampleFromSchema(schema)).toEqual(exampleFromSchema(schema));
  });

  it('reads the id prefix of spec §1 from a pattern', () => {
    expect(idPrefixOf('^inbox_[A-Za-z0-9_]+$')).toBe('inbox');
    expect(idPrefixOf('^key_')).toBe('key');
    expect(idPrefixOf('^[a-z]+$')).toBeUndefined();
    expect(idPrefixOf(undefined)).toBeUndefined();
  });
});

describe('exampleForPattern', () => {
  it.each([
    '^<[^<>@]+@[^<>@]+>$',
    '^[A-Za-z0-9_-]{1,64}$',
    '^(foo|bar)-\\d{2}$',
    '^\\w+(\\.\\w+)*$',
    '^https?://[a-z]+\\.com(/.*)?$',
    '[0-9]+',
    '^a{2,}b?c*$',
    '^[^\\s]+ [^\\s]+$',
    '^(?:prod|price)_[A-Za-z0-9]{24}$',
  ])('makes a match for %s', (pattern) => {
    const example = exampleForPattern(pattern);
    expect(example).toBeDefined();
    expect(new RegExp(pattern, 'u').test(example!)).toBe(true);
  });

  it('answers undefined rather than a string that does not match', () => {
    for (const pattern of ['^(?!a)b$', '^\\p{Lu}$', '(', '^[]$']) {
      const example = exampleForPattern(pattern);
      if (example !== undefined) expect(new RegExp(pattern, 'u').test(example)).toBe(true);
    }
    expect(exampleForPattern('(')).toBeUndefined();
  });
});
