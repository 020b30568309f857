/**
 * What each event type carries (contract §4.3): the schema of its `data.object`, which is the very
 * schema the API's answers use (so /openapi.json's `webhooks` and the API cannot drift), and how
 * `POST /__admin/events` finds a record of the account to send it about, like `stripe trigger`:
 * the newest record that fits, or a sample made for it (never stored, so triggering changes no state).
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import { EVENT_TYPES, type EventType } from '../operations/event-types.js';
import { timestampSchema } from '../operations/schemas.js';
import type { JsonSchema } from '../operations/types.js';
import type { IdGenerator } from '../random.js';
import { apiKeySchema, apiKeyView } from '../resources/api-keys/schemas.js';
import { customerSchema, customerView } from '../resources/customers/schemas.js';
import { discountDeletionSchema } from '../resources/discounts/operations.js';
import { inboxSchema, inboxView } from '../resources/email/schemas.js';
import { eventSessionSchema, eventSessionView } from '../resources/event-sessions/schemas.js';
import { formSubmissionSchema, formSubmissionView } from '../resources/form-submissions/schemas.js';
import { jobView } from '../resources/jobs/schemas.js';
import { experienceLinkDeletionSchema } from '../resources/price-variants/operations.js';
import { CRAWL_JOB, crawlJobSchema } from '../resources/web/schemas.js';
import type { JobRecord, JobStatus } from '../store/records.js';
import type { AccountStore } from '../store/store.js';

/** What a sample is made from: the account, the world's ids, its seed and the account's now. */
export interface SampleContext {
  account: AccountStore;
  ids: IdGenerator;
  seed: string;
  now: number;
}

export interface EventTypeInfo {
  type: EventType;
  description: string;
  /** The schema of `data.object`. */
  object: JsonSchema;
  /** The `data.object` of a triggered event. */
  sample(context: SampleContext): unknown;
}

function newest<T>(records: readonly T[], fits: (record: T) => boolean = () => true): T | undefined {
  for (let i = records.length - 1; i >= 0; i--) if (fits(records[i]!)) return records[i];
  return undefined;
}

/** A crawl of example.com that ended `status` at `now`: what a job event is about when the account has no such job. */
function sampleJob({ ids, now }: SampleContext, status: JobStatus): JobRecord {
  const at = isoTimestamp(now);
  const completed = status === 'completed';
  const units = 1;
  return {
    id: ids.next('job'),
    object: 'job',
    ...CRAWL_JOB,
    status,
    progress: completed ? 100 : 0,
    input: { url: 'https://example.com', max_pages: units, max_depth: 0 },
    error: status === 'failed' ? 'The crawl failed before it could finish. No credits were charged.' : null,
    error_code: status === 'failed' ? 'crawl_failed' : null,
    credits_used: completed ? units : 0,
    provider_request_id: null,
    created_at: at,
    started_at: null,
    completed_at: at,
    timeline: {
      queued_at_ms: now,
      started_at_ms: now,
      processing_ms: 0,
      ends_at_ms: now,
      outcome: status === 'completed' || status === 'failed' || status === 'cancelled' ? status : 'completed',
      ends_at_progress: completed ? 100 : 0,
      error: null,
      error_code: null,
      provider_request_id: '',
    },
    credits_cost: units,
    credits_hold: units,
    units,
  };
}

function jobEvent(status: 'completed' | 'failed' | 'cancelled', description: string): Omit<EventTypeInfo, 'type'> {
  return {
    description,
    object: crawlJobSchema,
    sample: (context) => {
      const job = newest(context.account.collection('jobs').values(), (record) => record.status === status) ?? sampleJob(context, status);
      return jobView(job, context.seed);
    },
  };
}

const CATALOG: { readonly [T in EventType]: Omit<EventTypeInfo, 'type'> } = {
  'job.completed': jobEvent(
    'completed',
    'A job completed; sent when the account clock reaches its end. `data.object` is the Job with its result.',
  ),
  'job.failed': jobEvent('failed', 'A job failed; sent when the account clock reaches its end. `data.object` is the Job with `error`.'),
  'job.cancelled': jobEvent('cancelled', 'A job was cancelled; sent when the account clock reaches its end.'),
  'form_submission.created': {
    description: 'A form submission was created (`POST /v1/form_submissions`).',
    object: formSubmissionSchema,
    sample: ({ account, ids, now }) => {
      const found = newest(account.collection('form_submissions').values());
      if (found) return formSubmissionView(found);
      const form = account.collection('forms').values()[0];
      const customer = account.collection('customers').values()[0];
      return formSubmissionView({
        id: ids.next('fsub'),
        object: 'form_submission',
        form_id: form?.id ?? ids.next('frm'),
        answers: [],
        respondent_type: 'customer',
        respondent_id: customer?.id ?? ids.next('cus'),
        created_at: isoTimestamp(now),
      });
    },
  },
  'customer.created': {
    description: 'A customer was created, by a form submission with a new email.',
    object: customerSchema,
    sample: ({ account, ids, now }) =>
      customerView(
        newest(account.collection('customers').values()) ?? {
          id: ids.next('cus'),
          object: 'customer',
          name: 'Sample Customer',
          email: 'sample.customer@example.com',
          created_at: isoTimestamp(now),
        },
      ),
  },
  'api_key.created': {
    description: 'An API key was created (`POST /v1/auth/keys`). `token` is always null here: secrets never travel in events.',
    object: apiKeySchema,
    sample: ({ account, ids, now }) =>
      apiKeyView(
        newest(account.collection('api_keys').values()) ?? {
          id: ids.next('key'),
          object: 'api_key',
          name: 'Sample',
          last4: '0000',
          token_type: 'api_key',
          last_used_at: null,
          expires_at: null,
          created_at: isoTimestamp(now),
          access: 'full',
          revoked_at: null,
        },
      ),
  },
  'inbox.updated': {
    description: 'An inbox was updated (`PATCH /v1/email/inboxes/{id}`).',
    object: inboxSchema,
    sample: ({ account, ids, now }) => {
      const inbox = newest(account.collection('inboxes').values());
      if (inbox) return inboxView(inbox);
      return inboxView({
        object: 'inbox',
        id: ids.next('inbox'),
        address: 'sample@example.com',
        local_part: 'sample',
        domain: 'example.com',
        display_name: 'Sample',
        status: 'active',
        metadata: {},
        created_at: isoTimestamp(now),
      });
    },
  },
  'discount.deleted': {
    description: 'A discount was deleted (`DELETE /v1/discounts/{id}`).',
    object: discountDeletionSchema,
    sample: ({ account, ids }) => ({
      id: newest(account.collection('discounts').values())?.id ?? ids.next('disc'),
      object: 'discount',
      deleted: true,
    }),
  },
  'experience_link.deleted': {
    description: 'An experience was unlinked from a price variant (`DELETE /v1/price_variants/{price_variant_id}/experiences/{id}`).',
    object: experienceLinkDeletionSchema,
    sample: ({ account, ids }) => {
      const variant = newest(account.collection('price_variants').values(), (record) => record.experience_ids.length > 0);
      return {
        price_variant: variant?.id ?? ids.next('pv'),
        experience: variant?.experience_ids[0] ?? ids.next('exp'),
        object: 'experience_link',
        deleted: true,
      };
    },
  },
  'event_session.created': {
    description: 'An event session was scheduled (`POST /v1/experiences/{experience_id}/event_sessions`).',
    object: eventSessionSchema,
    sample: ({ account, ids, now }) => {
      const session = newest(account.collection('event_sessions').values());
      if (session) return eventSessionView(session);
      return eventSessionView({
        id: ids.next('evs'),
        object: 'event_session',
        experience_id: ids.next('exp'),
        title: 'Sample session',
        description: '',
        start_time: isoTimestamp(now + 86_400_000),
        end_time: isoTimestamp(now + 90_000_000),
        location_type: 'zoom',
        location_details: 'https://example.com/meeting',
        allow_rsvp: true,
        capacity: null,
        repeat_frequency: 'never',
        created_at: isoTimestamp(now),
      });
    },
  },
};

export const EVENT_CATALOG: readonly EventTypeInfo[] = EVENT_TYPES.map((type) => ({ type, ...CATALOG[type] }));

export function eventTypeInfo(type: EventType): EventTypeInfo {
  return { type, ...CATALOG[type] };
}

/** The event type of a job that has ended: what its status says. */
export function jobEventType(status: JobStatus): EventType | undefined {
  if (status === 'completed') return 'job.completed';
  if (status === 'failed') return 'job.failed';
  if (status === 'cancelled') return 'job.cancelled';
  return undefined;
}

/** `JobCompletedEvent` for `job.completed`: the name the event's schema has in /openapi.json. */
export function eventSchemaTitle(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/**
 * The payload a receiver gets for `type`: the Event envelope of contract §4.3 around the resource's
 * own response schema. /openapi.json publishes it under `webhooks`; tests validate sent payloads against it.
 */
export function eventSchema(info: EventTypeInfo): JsonSchema {
  return {
    title: eventSchemaTitle(info.type),
    description: info.description,
    type: 'object',
    additionalProperties: false,
    required: ['id', 'object', 'type', 'created_at', 'account_id', 'data'],
    properties: {
      id: { type: 'string', pattern: '^evt_', description: 'Also the `webhook-id` header: the same on every attempt and every copy.' },
      object: { const: 'event' },
      type: { const: info.type },
      created_at: { ...timestampSchema, description: "Virtual time, on the account's clock (a job's event: when the job ended)." },
      account_id: { type: 'string', pattern: '^acct_' },
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['object'],
        properties: { object: info.object },
      },
    },
  };
}
