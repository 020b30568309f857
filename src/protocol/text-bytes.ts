/**
 * What a kept string weighs, for the byte budgets of the journal, the idempotency store and the
 * webhook delivery log: an upper bound of both its UTF-8 bytes (what a user reads in the docs and
 * what a body's length is stated in) and what V8 holds for it. V8 keeps a string one byte a unit
 * while every character is Latin-1, and two bytes a unit as soon as one is not: a mostly ASCII text
 * with one `€` takes twice its UTF-8 size, so such a string weighs 2 bytes a unit at least.
 */

/** Below this many UTF-16 units a string is weighed at 3 bytes each (its UTF-8 maximum) instead of scanned. */
const SCAN_ABOVE = 1024;

/**
 * The weight of `text`: 3 bytes a UTF-16 unit for a short string, so the common small body costs
 * no scan on the request path; a long one is scanned once.
 */
export function weighText(text: string): number {
  return text.length <= SCAN_ABOVE ? text.length * 3 : heldBytes(text);
}

/** The weight of `text`, scanned: its UTF-8 bytes, or two bytes a unit when that is more. */
export function heldBytes(text: string): number {
  const bytes = Buffer.byteLength(text);
  // Pure ASCII is one byte a unit both ways; anything else may be held two bytes a unit.
  return bytes === text.length ? bytes : Math.max(bytes, 2 * text.length);
}

/** Whether `text` is more than `limit` UTF-8 bytes, scanning it only when its length cannot tell. */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return false;
  if (text.length > limit) return true;
  return Buffer.byteLength(text) > limit;
}

/**
 * The longest prefix of `text` of at most `limit` UTF-8 bytes that ends on a whole character, as a
 * fresh string: a `slice` would keep the whole original alive behind it (V8 sliced strings).
 */
export function utf8Head(text: string, limit: number): string {
  // At most `limit` UTF-16 units can fit: encode only those.
  let units = Math.min(text.length, limit);
  // Never end on the first half of a surrogate pair.
  const last = text.charCodeAt(units - 1);
  if (units > 0 && last >= 0xd800 && last <= 0xdbff) units -= 1;
  const bytes = Buffer.from(text.slice(0, units), 'utf8');
  let end = Math.min(bytes.length, limit);
  // Back off the continuation bytes of a character cut by the limit.
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.toString('utf8', 0, end);
}
