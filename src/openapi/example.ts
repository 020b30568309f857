/**
 * Deterministic examples made from a JSON Schema, for the OpenAPI document. A declaration can give its
 * own (`example` on any schema node, or `success.example`); otherwise the example is built from the
 * schema so it always agrees with it (a test validates every example against its schema).
 */
import type { JsonSchema } from '../operations/types.js';

/** The instant every generated timestamp shows: fixed, so the document is byte-stable. */
export const EXAMPLE_TIMESTAMP = '2026-01-15T12:00:00Z';

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': EXAMPLE_TIMESTAMP,
  date: EXAMPLE_TIMESTAMP.slice(0, 10),
  uri: 'https://example.com/',
  url: 'https://example.com/',
  email: 'jane.doe@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
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

function stringExample(schema: JsonSchema, name: string): string {
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  const prefix = idPrefixOf(schema.pattern);
  let text = format ?? (prefix ? `${prefix}_0a1b2c3d4e5f` : name || 'string');
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(min, 'x');
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
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
    const preferred = union.find((option) => !typesOf(option).every((t) => t === 'null')) ?? union[0]!;
    return exampleFromSchema(preferred, name);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => exampleFromSchema(part, name)));
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
