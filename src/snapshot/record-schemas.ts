/**
 * The schema every record of a snapshot is held to (contract §5.3: "a damaged one → 422"): the
 * record as the store keeps it. Where /v1 answers with the record, that is the answer's own schema
 * (the one the OpenAPI document publishes and the response tests check) plus the members the store
 * keeps beside it, so the two cannot drift: a record loaded from a snapshot is one the /v1 code can
 * serve and update. The kinds /v1 never answers with (forms, deliveries, price variants, grants,
 * discounts, ad destinations, conversions) are declared here from src/store/records.ts.
 *
 * Every record schema is closed (a member the record never has is refused) except a conversion's,
 * which keeps every member of the event as sent (spec §4.6).
 */
import type { JsonSchema } from '../operations/types.js';
import { nullableTimestampSchema, openObjectSchema, prefixedIdSchema, timestampSchema } from '../operations/schemas.js';
import { apiKeySchema } from '../resources/api-keys/schemas.js';
import { customerSchema } from '../resources/customers/schemas.js';
import { inboxSchema, messageSchema } from '../resources/email/schemas.js';
import { eventSessionSchema } from '../resources/event-sessions/schemas.js';
import { experienceSchema } from '../resources/experiences/schemas.js';
import { formSubmissionSchema } from '../resources/form-submissions/schemas.js';
import { crawlJobSchema } from '../resources/web/schemas.js';
import { AD_PLATFORMS, FORM_FIELD_TYPES } from '../store/pinned-records.js';
import { SECRET_PATTERN } from '../webhooks/signing.js';
import type { RecordCollection } from './shape.js';

type Properties = Record<string, JsonSchema>;

/** A closed record of these members, all required. */
function closed(title: string, properties: Properties): JsonSchema {
  return { title, type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

/** A /v1 answer's schema, less `without`, plus the members the store keeps beside the answer's. */
function answerRecord(answer: JsonSchema, extra: Properties = {}, without: readonly string[] = []): JsonSchema {
  const properties: Properties = { ...(answer.properties as Properties), ...extra };
  for (const member of without) delete properties[member];
  return closed(`${String(answer.title)}Record`, properties);
}

const id = (prefix: string) => prefixedIdSchema(prefix);
const nullableId = (prefix: string): JsonSchema => ({ anyOf: [id(prefix), { type: 'null' }] });
const text: JsonSchema = { type: 'string' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const whole: JsonSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };

const formField = closed('FormFieldRecord', {
  id: id('fld'),
  field_type: { enum: [...FORM_FIELD_TYPES] },
  label: text,
  required: { type: 'boolean' },
  options: { type: 'array', items: text },
});

/** The schema of each collection's records under `records` (keys and jobs: see below). */
export const RECORD_SCHEMAS: { readonly [K in RecordCollection]: JsonSchema } = {
  forms: closed('FormRecord', {
    id: id('frm'),
    object: { const: 'form' },
    name: text,
    fields: { type: 'array', items: formField },
    lead_magnet_experience_id: nullableId('exp'),
    created_at: timestampSchema,
  }),
  form_submissions: answerRecord(formSubmissionSchema),
  customers: answerRecord(customerSchema),
  deliveries: closed('DeliveryRecord', {
    id: id('dlv'),
    object: { const: 'delivery' },
    form_id: id('frm'),
    form_submission_id: id('fsub'),
    customer_id: id('cus'),
    email: text,
    experience_id: nullableId('exp'),
    channel: { const: 'email' },
    status: { const: 'sent' },
    created_at: timestampSchema,
  }),
  inboxes: answerRecord(inboxSchema),
  messages: answerRecord(messageSchema),
  // One closed variant per type, chosen by the record's `type` (src/snapshot/decode.ts): the error
  // then names the member of that variant, not every variant's complaint. Titled apart from the
  // pinned experience of a fixture, which the admin document also names.
  experiences: { ...experienceSchema, title: 'ExperienceRecord' },
  price_variants: closed('PriceVariantRecord', {
    id: id('pv'),
    object: { const: 'price_variant' },
    name: text,
    amount: count,
    currency: { type: 'string', pattern: '^[a-z]{3}$' },
    interval: { enum: ['one_time', 'month', 'year'] },
    experience_ids: { type: 'array', items: id('exp') },
    created_at: timestampSchema,
  }),
  grants: closed('GrantRecord', {
    id: id('grant'),
    object: { const: 'grant' },
    customer_id: id('cus'),
    experience_id: id('exp'),
    price_variant_id: id('pv'),
    status: { enum: ['active', 'revoked'] },
    granted_at: timestampSchema,
    revoked_at: nullableTimestampSchema,
  }),
  discounts: closed('DiscountRecord', {
    id: id('disc'),
    object: { const: 'discount' },
    slug: text,
    name: text,
    percent_off: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 100 },
    amount_off: { type: ['integer', 'null'], minimum: 1 },
    currency: { type: ['string', 'null'], pattern: '^[a-z]{3}$' },
    duration: { enum: ['once', 'repeating', 'forever'] },
    max_redemptions: { type: ['integer', 'null'], minimum: 1 },
    times_redeemed: count,
    expires_at: nullableTimestampSchema,
    created_at: timestampSchema,
  }),
  event_sessions: answerRecord(eventSessionSchema, { experience_id: id('exp'), created_at: timestampSchema }),
  ad_destinations: closed('AdDestinationRecord', {
    id: id('addest'),
    object: { const: 'ad_destination' },
    account_id: id('adacct'),
    platform: { enum: [...AD_PLATFORMS] },
    name: text,
    pixel_id: text,
    created_at: timestampSchema,
  }),
  conversions: openObjectSchema({
    title: 'ConversionRecord',
    required: ['id', 'object', 'ad_account_id', 'destination_id', 'event_name', 'event_time', 'test', 'test_code', 'received_at'],
    properties: {
      id: id('conv'),
      object: { const: 'conversion' },
      ad_account_id: id('adacct'),
      destination_id: id('addest'),
      event_name: text,
      event_time: { type: ['number', 'string'] },
      test: { type: 'boolean' },
      test_code: { type: ['string', 'null'] },
      received_at: timestampSchema,
    },
  }),
};

/** A key as the snapshot holds it: the ApiKey answer, with its secret token and the store's access and revocation. */
export const SNAPSHOT_KEY_SCHEMA = answerRecord(apiKeySchema, {
  token: { type: 'string', pattern: '^[\\x21-\\x7e]{8,512}$' },
  access: { enum: ['full', 'read_only'] },
  revoked_at: nullableTimestampSchema,
});

const timeline = closed('JobTimeline', {
  queued_at_ms: whole,
  started_at_ms: whole,
  processing_ms: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  ends_at_ms: whole,
  outcome: { enum: ['completed', 'failed', 'cancelled'] },
  ends_at_progress: { type: 'integer', minimum: 0, maximum: 100 },
  error: { type: ['string', 'null'] },
  error_code: { type: ['string', 'null'] },
  provider_request_id: text,
});

/** A job as the store keeps it: the Job answer without its `result` (built at each read), with its timeline and credits. */
export const SNAPSHOT_JOB_SCHEMA = answerRecord(crawlJobSchema, { timeline, credits_cost: count, credits_hold: count, units: count }, [
  'result',
]);

/** A webhook endpoint with its signing secret (src/webhooks/records.ts); its URL and events are checked beside (decode.ts), as POST /__admin/webhook_endpoints checks them (src/webhooks/endpoint-input.ts). */
export const SNAPSHOT_ENDPOINT_SCHEMA = closed('WebhookEndpointRecord', {
  id: id('we'),
  object: { const: 'webhook_endpoint' },
  account_id: text,
  url: text,
  events: { type: 'array', items: text },
  // The signer decodes it as base64: anything else would fail at the first delivery.
  secret: { type: 'string', pattern: SECRET_PATTERN },
  status: { const: 'enabled' },
  created_at: timestampSchema,
});
