/**
 * The server-side conversion event of spec §4.6, whose element shape is "not shown". The sandbox
 * requires only what it records an event by, a name and a time, and keeps every other member as
 * sent (tolerant where the spec is silent: the ad platforms' shapes differ, and a sandbox that refuses one of them fails a
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

// Open: generators type the members nobody names as a map of unknown values.
export const conversionEventSchema: JsonSchema = openObjectSchema({
  required: ['event_name', 'event_time'],
  description:
    'Any members are accepted and recorded as sent (e.g. `event_id`, `action_source`, `event_source_url`, `user_data`, `custom_data`, ' +
    '`value`, `currency`); only a name and a time are required.',
  properties: {
    event_name: {
      type: 'string',
      minLength: 1,
      description: 'A standard name (Purchase, Lead, CompleteRegistration, Subscribe…) or a custom one.',
    },
    event_time: {
      anyOf: [
        { type: 'number', minimum: 0 },
        { type: 'string', format: 'date-time' },
      ],
      description: 'Unix seconds, or an ISO 8601 date-time with a time zone.',
    },
    // Named so generated clients type what the README's examples send; open, and typed only
    // where every ad platform agrees (an address and a user agent are text), so nothing a platform's
    // client sends is refused (tolerant where the spec is silent).
    user_data: openObjectSchema({
      // null too: a client that has no identifiers may send it so rather than leave it out.
      type: ['object', 'null'],
      description: 'Identifies the person; recorded as sent, except that a string `email` or `phone` is SHA-256 hashed.',
      properties: {
        email: { description: 'Plain (hashed by the sandbox) or the SHA-256 hex of the trimmed, lower-cased address.' },
        phone: { description: 'Plain (digits kept, then hashed) or SHA-256 hex.' },
        external_id: { description: "The advertiser's own id for the person." },
        client_ip_address: { type: 'string', description: 'An IPv4 or IPv6 address.' },
        client_user_agent: { type: 'string', description: "The browser's User-Agent." },
      },
    }),
    custom_data: openObjectSchema({ description: 'Free data about the conversion (value, currency, order id…), recorded as sent.' }),
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
