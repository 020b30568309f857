/**
 * Metadata updates (spec §4.7: "merged into the existing metadata"; §2.5: metadata is free-form).
 * The merge is shallow: each key sent replaces that key; a key sent as null is removed (Stripe
 * removes a key sent empty; JSON has a null for that). No limits on the number of keys or their
 * lengths: the spec sets none, and a sandbox that refused a free-form object a client may send would
 * fail it (tolerant where the spec is silent). What bounds metadata is what bounds every record
 * (src/store/record-meter.ts): the inbox at most 1 MiB of JSON, the account within its record budget.
 */
export function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  // A Map, then fromEntries: a key such as `__proto__` stays an ordinary key instead of a prototype.
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}
