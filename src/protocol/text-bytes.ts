/**
 * What a kept string weighs, for the byte budgets of the journal and the idempotency store. UTF-8
 * bytes are what a user reads in the docs and what a body's length is stated in; they are also an
 * upper bound of what V8 holds for the string (1 byte a character in a one-byte string, 2 in a
 * two-byte one, never more than its UTF-8 encoding), so a budget counted in them bounds memory.
 */

/** Below this many UTF-16 units a string is weighed at 3 bytes each (its UTF-8 maximum) instead of scanned. */
const SCAN_ABOVE = 1024;

/**
 * The UTF-8 bytes of `text`, or an upper bound of them for a short string (3 bytes a UTF-16 unit),
 * so the common small body costs no scan on the request path; a long one is counted exactly.
 */
export function weighText(text: string): number {
  return text.length <= SCAN_ABOVE ? text.length * 3 : Buffer.byteLength(text);
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
