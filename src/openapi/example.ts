/**
 * Deterministic examples made from a JSON Schema, for the OpenAPI document. A declaration can give its
 * own (`example` on any schema node, or `success.example`); otherwise the example is built from the
 * schema so it always agrees with it (a test validates every example against its schema).
 */
import type { JsonSchema } from '../operations/types.js';
import { exampleForPattern } from './pattern-example.js';

/** The instant every generated timestamp shows: fixed, so the document is byte-stable. */
export const EXAMPLE_TIMESTAMP = '2026-01-15T12:00:00Z';

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': EXAMPLE_TIMESTAMP,
  date: EXAMPLE_TIMESTAMP.slice(0, 10),
  uri: 'https://example.com/',
  url: 'https://example.com/',
  email: 'jane.doe@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  hostname: 'example.com',
};

/** `^inbox_[A-Za-z0-9_]+$` or `^key_` -> `inbox`, `key`: the id prefixes of spec §1. */
export function idPrefixOf(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  return /^\^([a-z][a-z0-9]*)_/.exec(pattern)?.[1];
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String);
  if (typeof type === 'string') return [type];
  if (schema.properties !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  return [];
}

function patternExample(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const prefix = idPrefixOf(pattern);
  const id = prefix ? `${prefix}_0a1b2c3d4e5f` : undefined;
  return id !== undefined && new RegExp(pattern, 'u').test(id) ? id : exampleForPattern(pattern);
}

function stringExample(schema: JsonSchema, name: string): string {
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  let text = format ?? patternExample(schema.pattern) ?? (name || 'string');
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(min, 'x');
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : undefined;
  let value = min ?? (max !== undefined ? Math.min(max, 1) : 1);
  if (integer) value = Math.ceil(value);
  return value;
}

/** An example value for `schema`; `name` is the property it belongs to (used for plain strings). */
export function exampleFromSchema(schema: JsonSchema, name = ''): unknown {
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if ('default' in schema) return schema.default;
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    // Keywords beside the union hold in every branch: `{type: 'string', anyOf: [{format: 'ipv4'}, …]}`.
    const { oneOf: _o, anyOf: _a, ...beside } = schema;
    const branches = union.map((option) => ({ ...beside, ...option }));
    const preferred = branches.find((option) => !typesOf(option).every((t) => t === 'null')) ?? branches[0]!;
    return exampleFromSchema(preferred, name);
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...base } = schema;
    return (allOf as JsonSchema[]).reduce<unknown>((example, part) => applyPart(example, part, name), exampleFromSchema(base, name));
  }
  const type = typesOf(schema).find((t) => t !== 'null') ?? typesOf(schema)[0];
  switch (type) {
    case 'string':
      return stringExample(schema, name);
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 0);
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
      return Array.from({ length: Math.min(count, max) }, () => exampleFromSchema(items, name));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) out[key] = exampleFromSchema(property, key);
      return out;
    }
    default:
      return {};
  }
}

/** One `allOf` part over an example: `if`/`then` applies `then` when the example meets `if`. */
function applyPart(example: unknown, part: JsonSchema, name: string): unknown {
  if (part.if !== undefined) {
    const branch = meets(example, part.if as JsonSchema) ? part.then : part.else;
    return branch === undefined ? example : merge(example, exampleFromSchema(branch as JsonSchema, name));
  }
  return merge(example, exampleFromSchema(part, name));
}

/**
 * Whether `value` meets an `if` condition, for the conditions declarations write (`properties` with
 * `const` or `enum`, `required`). Anything else is treated as not met, so the example stays the base.
 */
function meets(value: unknown, condition: JsonSchema): boolean {
  for (const [keyword, expected] of Object.entries(condition)) {
    if (keyword === 'const' && JSON.stringify(value) !== JSON.stringify(expected)) return false;
    else if (keyword === 'enum' && !(expected as unknown[]).some((v) => JSON.stringify(v) === JSON.stringify(value))) return false;
    else if (keyword === 'required' && !(expected as string[]).every((k) => value !== null && typeof value === 'object' && k in value))
      return false;
    else if (keyword === 'properties') {
      if (value === null || typeof value !== 'object') return false;
      for (const [k, sub] of Object.entries(expected as Record<string, JsonSchema>)) {
        if (k in value && !meets((value as Record<string, unknown>)[k], sub)) return false;
      }
    } else if (!['const', 'enum', 'required', 'properties', 'description', 'title'].includes(keyword)) return false;
  }
  return true;
}

function merge(base: unknown, over: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(base) || !isObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = key in base ? merge(base[key], value) : value;
  return out;
}
