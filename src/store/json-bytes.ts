/**
 * The UTF-8 bytes of `JSON.stringify(value)`, counted without building the text. The record budget
 * weighs every write, and a record may hold a megabyte: stringifying it only to measure it made one
 * more megabyte of garbage per write (a test counts the copies of a 1 MB body in the heap).
 *
 * Exact for what JSON.parse and the store make: plain objects, arrays, strings, finite numbers,
 * booleans and null, with `undefined` members left out as JSON.stringify leaves them. Anything else
 * (a Date, a value with `toJSON`, a non-finite number) is measured by JSON.stringify itself.
 */

/**
 * A text with no C0 control: one anchored pass of a negated class, the only scan of an ASCII text
 * besides `indexOf`'s (twice as fast as searching for the class, which V8 starts again at every position).
 */
const NO_CONTROL = /^[^\u0000-\u001f]*$/;
/** The first C0 control, searched for only in a text that has one. */
const CONTROL = /[\u0000-\u001f]/;
/** UTF-16 halves without their pair: JSON writes each as `\udXXX`, looked for only in a text that is not well formed. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** ES2024's `String.prototype.isWellFormed` (Node 20 has it; the project's lib is ES2023): no lone surrogate. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** How many times `unit` occurs in `text`, found by `indexOf` (a vectorized search, not a per-character test). */
function occurrences(text: string, unit: string): number {
  let count = 0;
  for (let at = text.indexOf(unit); at !== -1; at = text.indexOf(unit, at + 1)) count += 1;
  return count;
}

/** What escaping adds to the C0 controls from `from` on: 1 for `\b`, `\t`, `\n`, `\f`, `\r`, 5 for `\u00XX`. */
function controlEscapes(text: string, from: number): number {
  let bytes = 0;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20) continue;
    bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
  }
  return bytes;
}

/** Texts from this length on are remembered once weighed (`lastLong`), up to 1 Mi units: a record holds no longer one. */
const REMEMBERED = { from: 16 * 1024, to: 1024 * 1024 };

/**
 * The last long text weighed and what escaping adds to it. A write weighs the record it stores, and
 * its answer, which echoes that record, asks `writesAsIs` of the very same string a turn later: the
 * second scan of a megabyte is then one comparison. One text of at most 1 Mi UTF-16 units (2 MiB of two-byte text) is kept alive by it, shared by every sandbox of the process.
 */
let lastLong: { text: string; escapes: number } | undefined;

/** What escaping adds to `text`: 1 for each `"` and `\\`, the controls', and 3 for each lone surrogate (`\\udXXX`, 6 bytes, where Buffer.byteLength counted U+FFFD, 3). */
function escapeBytes(text: string): number {
  if (lastLong?.text === text) return lastLong.escapes;
  let bytes = occurrences(text, '"') + occurrences(text, '\\');
  if (!NO_CONTROL.test(text)) bytes += controlEscapes(text, text.search(CONTROL));
  if (!isWellFormed(text)) {
    LONE_SURROGATE.lastIndex = 0;
    while (LONE_SURROGATE.exec(text) !== null) bytes += 3;
  }
  if (text.length >= REMEMBERED.from && text.length <= REMEMBERED.to) lastLong = { text, escapes: bytes };
  return bytes;
}

/**
 * The quotes, the UTF-8 bytes, then what escaping adds. A megabyte of plain text costs one
 * `Buffer.byteLength`, two `indexOf` searches and one regex test (one regex trying three
 * alternatives, two of them with lookarounds, at every character took ~4 times longer).
 */
function stringBytes(text: string): number {
  return 2 + Buffer.byteLength(text) + escapeBytes(text);
}

/**
 * Whether JSON.stringify writes `text` as it is between quotes: no `"`, `\\`, C0 control or lone
 * surrogate in it. The same searches as `stringBytes` (none for the text it weighed last), so a long
 * text is checked in about the time it is weighed, and its JSON can be `"` + text + `"` without a
 * copy of the text.
 */
export function writesAsIs(text: string): boolean {
  return escapeBytes(text) === 0;
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
