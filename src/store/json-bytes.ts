/**
 * The UTF-8 bytes of `JSON.stringify(value)`, counted without building the text. The record budget
 * weighs every write, and a record may hold a megabyte: stringifying it only to measure it made one
 * more megabyte of garbage per write (a test counts the copies of a 1 MB body in the heap).
 *
 * Exact for what JSON.parse and the store make: plain objects, arrays, strings, finite numbers,
 * booleans and null, with `undefined` members left out as JSON.stringify leaves them. Anything else
 * (a Date, a value with `toJSON`, a non-finite number) is measured by JSON.stringify itself.
 */

/** Characters JSON writes escaped: `"`, `\`, C0 controls, and UTF-16 halves without their pair. */
const ESCAPED = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Controls written as two characters (`\b`, `\t`, `\n`, `\f`, `\r`); the other controls take six (`\u00XX`). */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

function stringBytes(text: string): number {
  // The quotes, the UTF-8 bytes, then what escaping adds to each character that needs it.
  let bytes = 2 + Buffer.byteLength(text);
  ESCAPED.lastIndex = 0;
  for (let match = ESCAPED.exec(text); match !== null; match = ESCAPED.exec(text)) {
    const code = match[0].charCodeAt(0);
    if (code === 0x22 || code === 0x5c || SHORT_ESCAPES.has(code)) bytes += 1;
    else if (code < 0x20) bytes += 5;
    // A lone surrogate: `\udXXX` (6 bytes) where Buffer.byteLength counted U+FFFD (3).
    else bytes += 3;
  }
  return bytes;
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The bytes of `value` as an array element or a member's value; undefined when JSON leaves it out. */
function valueBytes(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        // Brackets, commas, and `null` for what an array cannot leave out.
        let bytes = 2 + Math.max(0, value.length - 1);
        for (const element of value) bytes += valueBytes(element) ?? 4;
        return bytes;
      }
      if (!isPlain(value) || 'toJSON' in value) return fallback(value);
      let bytes = 2;
      let members = 0;
      for (const key of Object.keys(value)) {
        const member = valueBytes((value as Record<string, unknown>)[key]);
        if (member === undefined) continue;
        bytes += stringBytes(key) + 1 + member;
        members += 1;
      }
      return bytes + Math.max(0, members - 1);
    }
    case 'bigint':
      // JSON.stringify throws on it, as it should here.
      return fallback(value);
    default:
      return undefined;
  }
}

function fallback(value: unknown): number | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : Buffer.byteLength(text);
}

/** `Buffer.byteLength(JSON.stringify(value) ?? '')`, without the text. */
export function jsonBytes(value: unknown): number {
  return valueBytes(value) ?? 0;
}
