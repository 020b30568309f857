/**
 * JSON Schema -> fast-check arbitraries, for the subset the operation declarations use: type (one or
 * several), enum, const, format (date-time, date, uri, email, ipv4, ipv6, hostname, uuid), pattern
 * (prefixed ids and any regular expression fast-check can invert), min/max length, minimum/maximum
 * (also exclusive), multipleOf, properties/required/additionalProperties/min and maxProperties,
 * items/minItems/maxItems/uniqueItems and anyOf/oneOf (nullable unions; keywords beside them apply
 * to every branch). A keyword outside the subset throws, naming itself, rather than generating
 * values that silently ignore it.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../src/operations/types.js';
import { compileSchema } from '../../src/operations/validation.js';

const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

export type SchemaPath = readonly string[];

export interface ArbitraryOptions {
  /** Replaces the arbitrary of a node (e.g. ids picked from a tenant's records); undefined keeps the default. */
  override?: (schema: JsonSchema, path: SchemaPath) => fc.Arbitrary<unknown> | undefined;
  /** Longest plain string generated when the schema allows longer (keeps runs fast). */
  maxStringLength?: number;
}

export class UnsupportedSchemaError extends Error {}

function checkKeywords(schema: JsonSchema, path: SchemaPath): void {
  for (const keyword of Object.keys(schema)) {
    if (!HANDLED.has(keyword) && !ANNOTATIONS.has(keyword) && !keyword.startsWith('x-')) {
      throw new UnsupportedSchemaError(
        `Unsupported JSON Schema keyword "${keyword}" at /${path.join('/')}: extend test/support/arbitraries.ts`,
      );
    }
  }
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export const EMAIL = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/), fc.constantFrom('com', 'org', 'io', 'dev'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
export const URI = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,12}[a-z0-9]$/),
    fc.constantFrom('com', 'org', 'dev'),
    fc.stringMatching(/^(\/[a-z0-9_-]{1,8}){0,3}$/),
  )
  .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}${path}`);
const DATE_TIME = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString().replace('.000Z', 'Z'));

function stringArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength);
  const inBounds = (s: string) => [...s].length >= minLength && (maxLength === undefined || [...s].length <= maxLength);
  let base: fc.Arbitrary<string>;
  if (typeof schema.format === 'string') {
    const byFormat: Record<string, fc.Arbitrary<string>> = {
      'date-time': DATE_TIME,
      date: DATE_TIME.map((s) => s.slice(0, 10)),
      uri: URI,
      url: URI,
      email: EMAIL,
      ipv4: fc.ipV4(),
      ipv6: fc.ipV6(),
      hostname: fc.domain(),
      uuid: fc.uuid(),
    };
    const format = byFormat[schema.format];
    if (!format) throw new UnsupportedSchemaError(`Unsupported string format "${schema.format}": extend test/support/arbitraries.ts`);
    base = format;
  } else if (typeof schema.pattern === 'string') {
    base = fc.stringMatching(new RegExp(schema.pattern, 'u'));
  } else {
    const cap = Math.max(minLength, Math.min(maxLength ?? Infinity, minLength + (options.maxStringLength ?? 40)));
    const bounds = { minLength, maxLength: cap };
    // Mostly printable ASCII; sometimes any code point (astral, control, lone surrogates).
    return fc.oneof({ arbitrary: fc.string(bounds), weight: 4 }, { arbitrary: fc.string({ ...bounds, unit: 'binary' }), weight: 1 });
  }
  return base.filter(inBounds);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  const multipleOf = num(schema.multipleOf);
  if (integer) {
    const min = num(schema.minimum) ?? (exclusiveMin !== undefined ? Math.floor(exclusiveMin) + 1 : Number.MIN_SAFE_INTEGER);
    const max = num(schema.maximum) ?? (exclusiveMax !== undefined ? Math.ceil(exclusiveMax) - 1 : Number.MAX_SAFE_INTEGER);
    const values = fc.oneof(fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }), fc.constantFrom(min, max));
    return multipleOf ? values.map((v) => Math.ceil(v / multipleOf) * multipleOf).filter((v) => v >= min && v <= max) : values;
  }
  const min = num(schema.minimum) ?? exclusiveMin;
  const max = num(schema.maximum) ?? exclusiveMax;
  const values = fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  });
  return values.filter((v) => (exclusiveMin === undefined || v > exclusiveMin) && (exclusiveMax === undefined || v < exclusiveMax));
}

function objectArbitrary(schema: JsonSchema, path: SchemaPath, options: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = arbitraryFor(property, options, [...path, name]);
  for (const name of required) if (!(name in model)) model[name] = fc.jsonValue();
  const known = fc.record(model, { requiredKeys: required }).map((value) => ({ ...value }));
  const minProperties = num(schema.minProperties) ?? 0;
  const maxProperties = num(schema.maxProperties) ?? Infinity;
  const counted = (value: Record<string, unknown>) =>
    Object.keys(value).length >= minProperties && Object.keys(value).length <= maxProperties;
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false || extra === true) return known.filter(counted);
  // A map such as `metadata`: extra keys with values of the given schema, never shadowing a property.
  const values = arbitraryFor(extra as JsonSchema, options, [...path, '*']);
  const keys = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(key in properties) && key !== '__proto__');
  const extras = fc.dictionary(keys, values, {
    minKeys: Math.min(minProperties, 4),
    maxKeys: Math.max(Math.min(4, maxProperties), Math.min(minProperties, 4)),
  });
  return fc
    .tuple(known, extras)
    .map(([k, more]) => ({ ...more, ...k }))
    .filter(counted);
}

function arrayArbitrary(schema: JsonSchema, path: SchemaPath, options: ArbitraryOptions): fc.Arbitrary<unknown[]> {
  const items = arbitraryFor((schema.items ?? {}) as JsonSchema, options, [...path, '0']);
  const minLength = num(schema.minItems) ?? 0;
  const maxLength = Math.min(num(schema.maxItems) ?? Infinity, minLength + 5);
  return schema.uniqueItems === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(items, { minLength, maxLength });
}

function typedArbitrary(type: string, schema: JsonSchema, path: SchemaPath, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema, options);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'object':
      return objectArbitrary(schema, path, options);
    case 'array':
      return arrayArbitrary(schema, path, options);
    default:
      throw new UnsupportedSchemaError(`Unsupported type "${type}" at /${path.join('/')}`);
  }
}

/** Values that validate against `schema`; the declaration's own examples are among them. */
export function arbitraryFor(schema: JsonSchema, options: ArbitraryOptions = {}, path: SchemaPath = []): fc.Arbitrary<unknown> {
  checkKeywords(schema, path);
  const overridden = options.override?.(schema, path);
  if (overridden) return overridden;
  const examples = [...('example' in schema ? [schema.example] : []), ...(Array.isArray(schema.examples) ? schema.examples : [])];
  if (examples.length === 0) return generatedFor(schema, options, path);
  const validate = compileSchema(schema);
  const valid = examples.filter((example) => validate(structuredClone(example)));
  const generated = generatedFor(schema, options, path);
  return valid.length === 0
    ? generated
    : fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 1 }, { arbitrary: generated, weight: 2 });
}

function generatedFor(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) {
    // Keywords beside the union (`{type: 'string', anyOf: [{format: 'ipv4'}, {format: 'ipv6'}]}`) hold in every branch.
    const { anyOf: _a, oneOf: _o, ...beside } = schema;
    const branches = union.map((option) => ({ ...beside, ...option }));
    const any = fc.oneof(...branches.map((branch, i) => arbitraryFor(branch, options, [...path, String(i)])));
    if (!schema.oneOf) return any;
    // oneOf: exactly one branch may match.
    const validators = branches.map((branch) => compileSchema(branch));
    return any.filter((value) => validators.filter((validate) => validate(value)).length === 1);
  }
  const type = schema.type;
  const types = Array.isArray(type)
    ? (type as string[])
    : typeof type === 'string'
      ? [type]
      : schema.properties
        ? ['object']
        : schema.items
          ? ['array']
          : [];
  if (types.length === 0) return fc.jsonValue();
  return fc.oneof(...types.map((t) => typedArbitrary(t, schema, path, options)));
}

/** The JSON types (`integer` counted as number) that `schema` accepts; undefined when it does not say. */
function acceptedTypes(schema: JsonSchema): Set<string> | undefined {
  if ('const' in schema || Array.isArray(schema.enum)) return undefined;
  const type = schema.type;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : undefined;
  if (!types) return undefined;
  return new Set(types.map((t) => (t === 'integer' ? 'number' : t)));
}

/** Values of a JSON type `schema` does not accept (for enums and consts: values outside them); undefined when anything goes. */
export function wrongTypeFor(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  if (Array.isArray(schema.enum) || 'const' in schema) {
    const allowed = new Set((Array.isArray(schema.enum) ? schema.enum : [schema.const]).map((v) => JSON.stringify(v)));
    return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)).filter((v) => !allowed.has(JSON.stringify(v)));
  }
  const accepted = acceptedTypes(schema);
  if (!accepted) return undefined;
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 8 })],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['object', fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer(), { maxKeys: 2 })],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
  ];
  const wrong = candidates.filter(([name]) => !accepted.has(name)).map(([, arbitrary]) => arbitrary);
  // An integer field also refuses non-integral numbers.
  if (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer') && !schema.type.includes('number'))) {
    wrong.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Number.isInteger(v)));
  }
  return wrong.length > 0 ? fc.oneof(...wrong) : undefined;
}
