/**
 * Metadata updates (spec §4.7: "merged into the existing metadata"). The merge is shallow: each key
 * sent replaces that key; a key sent as null is removed (Stripe removes a key sent empty; JSON has a
 * null for that). Limits, as Stripe's: 50 keys, keys of at most 40 characters, values of at most 500
 * characters of JSON.
 */
import type { FieldErrors } from '../../errors/api-error.js';

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

export const METADATA_MESSAGES = {
  keyLength: `key must be 1 to ${METADATA_LIMITS.keyLength} characters`,
  valueLength: `value must be at most ${METADATA_LIMITS.valueLength} characters of JSON`,
  tooManyKeys: `must have at most ${METADATA_LIMITS.keys} keys after the merge`,
} as const;

export function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): { merged: Record<string, unknown>; errors: FieldErrors } {
  // A Map, then fromEntries: a key such as `__proto__` stays an ordinary key instead of a prototype.
  const merged = new Map(Object.entries(current));
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) errors[`metadata.${key}`] = [METADATA_MESSAGES.keyLength];
    else if (value !== null && JSON.stringify(value).length > METADATA_LIMITS.valueLength) errors[`metadata.${key}`] = [METADATA_MESSAGES.valueLength];
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  if (Object.keys(errors).length === 0 && merged.size > METADATA_LIMITS.keys) errors.metadata = [METADATA_MESSAGES.tooManyKeys];
  return { merged: Object.fromEntries(merged), errors };
}
