/**
 * The server-side conversion event of spec §4.6, whose element shape is "not shown". The sandbox
 * requires only what it records an event by, a name and a time, and keeps every other member as
 * sent (issue 14.1: the ad platforms' shapes differ, and a sandbox that refuses one of them fails a
 * correct client). Members that carry a person's email or phone in `user_data` are normalised and
 * SHA-256 hashed before they are stored, as the platforms require of what they keep.
 */
import { createHash } from 'node:crypto';
import { openObjectSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';

/** An event as sent: a name and a time, and any other member. */
export interface ConversionEvent {
  event_name: string;
  /** Unix seconds, or an ISO 8601 date-time with a time zone. */
  event_time: number | string;
  [member: string]: unknown;
}

// Open: generators type the members nobody names as a map of unknown values (issue 14.4).
export const conversionEventSchema: JsonSchema = openObjectSchema({
  required: ['event_name', 'event_time'],
  description:
    'Any members are accepted and recorded as sent (e.g. `event_id`, `action_source`, `event_source_url`, `user_data`, `custom_data`, ' +
    '`value`, `currency`); only a name and a time are required.',
  properties: {
    event_name: { type: 'string', minLength: 1, description: 'A standard name (Purchase, Lead, CompleteRegistration, Subscribe…) or a custom one.' },
    event_time: {
      anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', format: 'date-time' }],
      description: 'Unix seconds, or an ISO 8601 date-time with a time zone.',
    },
  },
});

const SHA256_HEX = /^[a-f0-9]{64}$/i;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `user_data` as stored: a string `email` (trimmed, lower-cased) and `phone` (digits only) hashed
 * unless already a SHA-256 hex digest; every other member, and user data that is not an object, as sent.
 */
export function hashedUserData(user: unknown): unknown {
  if (user === null || typeof user !== 'object' || Array.isArray(user)) return user;
  const out: Record<string, unknown> = { ...(user as Record<string, unknown>) };
  if (typeof out.email === 'string' && !SHA256_HEX.test(out.email)) out.email = sha256(out.email.trim().toLowerCase());
  if (typeof out.phone === 'string' && !SHA256_HEX.test(out.phone)) out.phone = sha256(out.phone.replace(/\D/g, ''));
  return out;
}
