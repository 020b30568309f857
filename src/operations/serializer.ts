/**
 * Success bodies are serialized by a function compiled from the operation's own response schema,
 * as Fastify does with fast-json-stringify. On Node 20 it is two to four times faster than
 * JSON.stringify on the small nested objects this API answers (lists keep JSON.stringify: see
 * `compileSerializer`). JSON.stringify was the largest single cost of a GET /v1/status (measured:
 * ~2 µs of ~22 µs of server CPU per request under load). Each operation's function is compiled on
 * its first answer, so start-up pays nothing for it.
 *
 * The compiler is ours, not fast-json-stringify (start-up pays only for what it uses): what it is
 * told of a schema (`serializationSchema`) is a closed object's property names, the rest is written
 * by JSON.stringify, so all it needs is to write those names in order. fast-json-stringify brought
 * 90 KB of code and its own ajv into the CLI's start-up and cost ~15 ms on the first answer (its
 * module, then an ajv instance per compiled schema); this compiles one in ~0.05 ms and writes as
 * fast (`npm run bench`).
 *
 * The bytes must stay exactly JSON.stringify's: idempotent replays, determinism and what clients
 * have already seen depend on them. A compiled function writes properties in schema order and drops
 * properties the schema does not list, so a body that strays from its schema in either way would be
 * answered differently. With `CCM_VERIFY_SERIALIZATION=1` (the test suite sets it) every answer is
 * also serialized by JSON.stringify, and a difference fails the request with an error naming the
 * operation.
 */
import { largeJson } from './large-json.js';
import type { JsonSchema, OperationDef } from './types.js';

export type Serializer = (body: unknown) => string;

const VERIFY = process.env.CCM_VERIFY_SERIALIZATION === '1';

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

function isScalarType(type: unknown): boolean {
  return typeof type === 'string'
    ? SCALAR_TYPES.has(type)
    : Array.isArray(type) && type.length > 0 && type.every((t) => SCALAR_TYPES.has(t as string));
}

/**
 * What the compiled serializer is told of a response schema: only the structure it can write
 * exactly as JSON.stringify does. A closed object (`additionalProperties: false`) keeps its
 * properties (no `required`: a missing property is left out, as JSON.stringify leaves out
 * undefined) and drops combinators, which can only narrow a closed object's listed properties; an
 * array keeps its items; a scalar keeps its type. Everything else (open objects such as metadata,
 * `anyOf` unions) becomes `{}`, which the compiled writer leaves to JSON.stringify.
 */
export function serializationSchema(schema: JsonSchema): JsonSchema {
  const { type, properties, items } = schema as { type?: unknown; properties?: Record<string, JsonSchema>; items?: unknown };
  if (type === 'object' && schema.additionalProperties === false && properties && typeof properties === 'object') {
    const kept: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(properties)) kept[name] = serializationSchema(property);
    return { type: 'object', additionalProperties: false, properties: kept };
  }
  if (type === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
    return { type: 'array', items: serializationSchema(items as JsonSchema) };
  }
  if (['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'].some((keyword) => keyword in schema)) return {};
  if (isScalarType(type)) return { type };
  // An enum of strings (`{ enum: ['free', 'paid'] }`) is a string.
  const { enum: values } = schema as { enum?: unknown };
  if (type === undefined && Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string'))
    return { type: 'string' };
  return {};
}

function hasArray(schema: JsonSchema): boolean {
  if (schema.type === 'array') return true;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return properties !== undefined && Object.values(properties).some(hasArray);
}

const stringify: Serializer = (body) => JSON.stringify(body);

/**
 * Writes one value as JSON.stringify writes it as the property `key` of an object (`''` at the top);
 * `undefined` where JSON.stringify leaves the property out.
 */
type ValueWriter = (value: unknown, key: string) => string | undefined;

/** What JSON.stringify escapes in a string (controls, quote, backslash, surrogates: lone ones become \u escapes). */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

function hasToJSON(value: object | bigint): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/**
 * JSON.stringify of `value` as the property `key` of an object: the one difference from
 * JSON.stringify(value) is the key its toJSON is called with, so a value with a toJSON (a Date)
 * is written inside a holder object, and the holder's text taken off.
 */
function stringifyAt(value: unknown, key: string): string | undefined {
  if (key === '') return JSON.stringify(value);
  const text = JSON.stringify({ [key]: value });
  return text === '{}' ? undefined : text.slice(JSON.stringify(key).length + 2, -1);
}

/**
 * Any value as JSON.stringify writes it. A short string that needs no escape is quoted by hand (a
 * call of JSON.stringify costs more than the test on ids and timestamps); a finite number's text is
 * the same Number::toString JSON.stringify uses. Primitives are written without looking for a
 * toJSON on String.prototype, Number.prototype or Boolean.prototype, which only a program that
 * adds one there would have.
 */
const writeValue: ValueWriter = (value, key) => {
  switch (typeof value) {
    case 'string':
      return value.length <= 64 && !ESCAPED.test(value) ? `"${value}"` : JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? `${value}` : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      if (value === null) return 'null';
      return hasToJSON(value) ? stringifyAt(value, key) : JSON.stringify(value);
    default:
      // A bigint: JSON.stringify throws, unless a toJSON on BigInt.prototype says how to write it.
      return stringifyAt(value, key);
  }
};

/**
 * The writer of a closed object: generated code that reads each listed property by name and writes
 * it in schema order, leaving out what JSON.stringify leaves out (undefined, and what writes as
 * undefined). Names enter the code only as JSON string literals, which are also JavaScript ones.
 * Anything but a plain object (null, a primitive, an array, a Date or another class's instance,
 * an object with its own toJSON) is written by `writeValue`, that is as JSON.stringify writes it.
 * A plain object's listed properties are read as `v[name]`, which also finds a non-enumerable own
 * property or one inherited from Object.prototype, both of which JSON.stringify skips: records are
 * parsed JSON and object literals, which have neither.
 */
function compileObjectWriter(properties: Record<string, JsonSchema>): ValueWriter {
  const names = Object.keys(properties);
  const writers = names.map((name) => compileWriter(properties[name]!));
  const lines = names.map((name, i) => {
    const literal = JSON.stringify(name);
    const key = JSON.stringify(JSON.stringify(name) + ':');
    return `x = v[${literal}]; if (x !== undefined && (x = w[${i}](x, ${literal})) !== undefined) s += (s === '' ? ${key} : ',' + ${key}) + x;`;
  });
  const body = `return function (v, k) {
    if (v === null || typeof v !== 'object') return fallback(v, k);
    const p = Object.getPrototypeOf(v);
    if ((p !== Object.prototype && p !== null) || typeof v.toJSON === 'function') return fallback(v, k);
    let s = '', x;
    ${lines.join('\n    ')}
    return '{' + s + '}';
  };`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is built above from the schema's names, each a JSON literal
  const make = new Function('w', 'fallback', body) as (w: readonly ValueWriter[], fallback: ValueWriter) => ValueWriter;
  return make(writers, writeValue);
}

function compileWriter(structure: JsonSchema): ValueWriter {
  const properties = structure.properties as Record<string, JsonSchema> | undefined;
  if (structure.type === 'object' && properties) return compileObjectWriter(properties);
  return writeValue;
}

/**
 * Compiles `schema` into a serializer. Bodies
 * holding an array (lists, whose length grows with `limit`) keep JSON.stringify: the compiled
 * function builds its output from many pieces that must be joined before the body is written, and
 * on a page of 15 experiences (6 KB) that cost more than it saved (measured 14.0 against 12.0 µs,
 * serializing and measuring the bytes); on records of a few hundred bytes it saves 0.1–0.4 µs.
 */
export function compileSerializer(schema: JsonSchema): Serializer {
  const structure = serializationSchema(schema);
  if (hasArray(structure)) return stringify;
  const write = compileWriter(structure);
  return (body) => write(body, '') as string;
}

/** The serializer of `op`'s success body: compiled on first use, checked against JSON.stringify when verifying. */
export function successSerializer(op: OperationDef): Serializer {
  let compiled: Serializer | undefined;
  return (body) => {
    compiled ??= compileSerializer(op.success.schema);
    const text = compiled(body);
    if (VERIFY && compiled !== stringify) {
      const expected = JSON.stringify(body);
      if (text !== expected) {
        throw new Error(`${op.operationId}: the compiled serializer wrote ${text} where JSON.stringify writes ${expected}`);
      }
    }
    return text;
  };
}

/**
 * A large answer (one that echoes a large request body): `JSON.stringify`'s text, written by
 * `largeJson` (src/operations/large-json.ts) with its long strings copied once. Its text is, by
 * construction, the JSON of the view, which an event of the same view (src/http/publish-events.ts)
 * takes instead of serializing the megabyte a second time. The compiled writer would save nothing
 * there (one member's JSON is nearly all of it) and writes the same bytes by the rule above; when
 * verifying, it runs too, and a difference from either fails the request.
 */
export function flatSerializer(serialize: Serializer): Serializer {
  if (!VERIFY) return (body) => largeJson(body) as string;
  return (body) => {
    const expected = serialize(body);
    const text = largeJson(body) as string;
    if (text !== expected)
      throw new Error(`the large answer writer wrote ${text.slice(0, 200)}… where JSON.stringify writes ${expected.slice(0, 200)}…`);
    return text;
  };
}
