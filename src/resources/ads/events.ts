/**
 * The server-side conversion event we accept (spec §4.6 leaves it open; modelled on the conversion
 * APIs of the big ad platforms and documented in the README): an event name, a Unix `event_time`,
 * an optional `event_id` for deduplication, the `action_source`, user data that identifies the
 * person (email and phone are normalised and SHA-256 hashed before they are stored, as the platforms
 * require) and free custom data (value, currency, order id…).
 */
import { createHash } from 'node:crypto';
import type { FieldErrors } from '../../errors/api-error.js';
import { openObjectSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';

export const ACTION_SOURCES = ['website', 'email', 'app', 'phone_call', 'chat', 'physical_store', 'system_generated', 'other'] as const;
/** Events older than this are refused, as the platforms refuse them. */
export const MAX_EVENT_AGE_SECONDS = 7 * 24 * 3600;
/** Clock skew tolerated for events stamped in the future. */
export const MAX_EVENT_LEAD_SECONDS = 60;
export const MAX_EVENTS_PER_REQUEST = 1000;

export interface ConversionEvent {
  event_name: string;
  event_time: number;
  event_id?: string;
  action_source: (typeof ACTION_SOURCES)[number];
  event_source_url?: string;
  user_data: Record<string, string>;
  custom_data?: Record<string, unknown>;
}

export const CONVERSION_MESSAGES = {
  noIdentifier: 'must contain at least one identifier: email, phone, external_id, or client_ip_address with client_user_agent',
  tooOld: `must be within the last ${MAX_EVENT_AGE_SECONDS / 86400} days`,
  inFuture: `must not be more than ${MAX_EVENT_LEAD_SECONDS} seconds in the future`,
  currencyRequired: 'is required when value is given',
  email: 'must be an email address or its SHA-256 hex digest',
} as const;

const SHA256_HEX = /^[a-f0-9]{64}$/;

export const conversionEventSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['event_name', 'event_time', 'user_data'],
  properties: {
    event_name: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'A standard name (Purchase, Lead, CompleteRegistration, Subscribe…) or a custom one.',
    },
    event_time: {
      type: 'integer',
      description: `Unix seconds; at most ${MAX_EVENT_AGE_SECONDS / 86400} days old, at most ${MAX_EVENT_LEAD_SECONDS} s ahead.`,
    },
    event_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Deduplication key, shared with the browser pixel event.' },
    action_source: { enum: ACTION_SOURCES, default: 'website' },
    event_source_url: { type: 'string', format: 'uri', maxLength: 2048 },
    user_data: {
      type: 'object',
      additionalProperties: false,
      properties: {
        email: {
          type: 'string',
          minLength: 3,
          maxLength: 254,
          description: 'Plain (hashed by the sandbox) or SHA-256 hex of the trimmed, lower-cased address.',
        },
        phone: { type: 'string', minLength: 7, maxLength: 64, description: 'Plain (digits kept, then hashed) or SHA-256 hex.' },
        external_id: { type: 'string', minLength: 1, maxLength: 255 },
        // Each branch says `string`: an untyped branch makes generators type the address `unknown`.
        client_ip_address: { anyOf: [{ type: 'string', format: 'ipv4' }, { type: 'string', format: 'ipv6' }], description: 'An IPv4 or IPv6 address.' },
        client_user_agent: { type: 'string', minLength: 1, maxLength: 1024 },
        fbc: { type: 'string', maxLength: 255 },
        fbp: { type: 'string', maxLength: 255 },
      },
    },
    custom_data: openObjectSchema({
      properties: {
        value: { type: 'number', minimum: 0 },
        currency: { type: 'string', pattern: '^[A-Za-z]{3}$' },
        order_id: { type: 'string', maxLength: 255 },
        content_ids: { type: 'array', items: { type: 'string' }, maxItems: 100 },
        content_type: { type: 'string', maxLength: 100 },
        num_items: { type: 'integer', minimum: 0 },
      },
    }),
  },
};

/** Rules the schema cannot say, for every event at once; keys like `events.3.event_time`. */
export function eventProblems(events: ConversionEvent[], nowSeconds: number): FieldErrors {
  const errors: FieldErrors = {};
  events.forEach((event, i) => {
    const at = `events.${i}`;
    const user = event.user_data;
    const identified =
      user.email !== undefined ||
      user.phone !== undefined ||
      user.external_id !== undefined ||
      (user.client_ip_address !== undefined && user.client_user_agent !== undefined);
    if (!identified) errors[`${at}.user_data`] = [CONVERSION_MESSAGES.noIdentifier];
    if (user.email !== undefined && !SHA256_HEX.test(user.email) && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(user.email.trim())) {
      errors[`${at}.user_data.email`] = [CONVERSION_MESSAGES.email];
    }
    if (event.event_time < nowSeconds - MAX_EVENT_AGE_SECONDS) errors[`${at}.event_time`] = [CONVERSION_MESSAGES.tooOld];
    if (event.event_time > nowSeconds + MAX_EVENT_LEAD_SECONDS) errors[`${at}.event_time`] = [CONVERSION_MESSAGES.inFuture];
    if (event.custom_data?.value !== undefined && event.custom_data.currency === undefined) {
      errors[`${at}.custom_data.currency`] = [CONVERSION_MESSAGES.currencyRequired];
    }
  });
  return errors;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** User data as stored: email and phone normalised and hashed (left alone when already hashed). */
export function hashedUserData(user: Record<string, string>): Record<string, string> {
  const out = { ...user };
  if (user.email !== undefined && !SHA256_HEX.test(user.email)) out.email = sha256(user.email.trim().toLowerCase());
  if (user.phone !== undefined && !SHA256_HEX.test(user.phone)) out.phone = sha256(user.phone.replace(/\D/g, ''));
  return out;
}
