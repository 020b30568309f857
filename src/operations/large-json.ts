/**
 * `JSON.stringify(value)`'s exact text, written for an answer that echoes a large body (an inbox
 * with a megabyte of metadata). JSON.stringify scans and copies a long string into pieces of its
 * own, and the answer is copied once more when those pieces are flattened to be measured and
 * written: a megabyte of garbage and two passes. Here a long string that needs no escape is
 * checked with `indexOf` and one regex test, and copied once, when the parts are joined into the
 * one flat answer.
 *
 * Only a bounded part of the value is walked by hand: at most WALKED_MEMBERS members in all, each
 * object or array of at most WALKED_MEMBERS members; anything else (a larger subtree, a short
 * string, a number) is written by JSON.stringify itself, so a body of many small members costs what
 * JSON.stringify costs. Plain objects and arrays are walked as JSON.stringify walks them (`Object.keys`
 * order, `undefined`, functions and symbols left out of an object and written `null` in an array);
 * anything with a `toJSON` or another prototype is written by JSON.stringify as the member it is.
 */
import { writesAsIs } from '../store/json-bytes.js';

/** Strings from this length on are checked and quoted here; shorter ones cost less through JSON.stringify. */
export const LONG_STRING = 16 * 1024;
/** How many members the writer walks by hand at most, in all and in any one object or array. */
export const WALKED_MEMBERS = 256;

interface Walk {
  parts: string[];
  /** Members still allowed to be walked by hand. */
  budget: number;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function isPlainArray(value: object): value is unknown[] {
  return (
    Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** JSON.stringify of `value` as the member `key` of an object (a toJSON is called with its key). */
function stringifyAt(value: unknown, key: string): string | undefined {
  if (key === '') return JSON.stringify(value);
  const text = JSON.stringify({ [key]: value });
  return text === '{}' ? undefined : text.slice(JSON.stringify(key).length + 2, -1);
}

/** Appends the JSON of `value` as member `key`; false when JSON leaves it out (undefined, a function, a symbol). */
function write(value: unknown, key: string, walk: Walk): boolean {
  if (typeof value === 'string') {
    walk.parts.push(value.length >= LONG_STRING && writesAsIs(value) ? `"${value}"` : JSON.stringify(value));
    return true;
  }
  if (typeof value === 'object' && value !== null) {
    if (isPlainArray(value) && value.length <= Math.min(walk.budget, WALKED_MEMBERS)) {
      walk.budget -= value.length;
      walk.parts.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) walk.parts.push(',');
        if (!write(value[i], String(i), walk)) walk.parts.push('null');
      }
      walk.parts.push(']');
      return true;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      if (keys.length <= Math.min(walk.budget, WALKED_MEMBERS)) {
        walk.budget -= keys.length;
        walk.parts.push('{');
        let written = 0;
        for (const member of keys) {
          const at = walk.parts.length;
          walk.parts.push(written > 0 ? ',' : '', JSON.stringify(member), ':');
          if (write((value as Record<string, unknown>)[member], member, walk)) written += 1;
          else walk.parts.length = at;
        }
        walk.parts.push('}');
        return true;
      }
    }
  }
  const text = stringifyAt(value, key);
  if (text === undefined) return false;
  walk.parts.push(text);
  return true;
}

/** `JSON.stringify(value)`, the same text, with long strings that need no escape copied once. */
export function largeJson(value: unknown): string | undefined {
  const walk: Walk = { parts: [], budget: WALKED_MEMBERS };
  return write(value, '', walk) ? walk.parts.join('') : undefined;
}
