/**
 * Send conversions: spec §4.6, §2.10. The destination must exist in the caller's account and belong
 * to the named ad account (404 otherwise); every event is recorded in `conversions`, marked as a test
 * event when `test_code` is sent. The answer is the empty object of the reference's sample.
 */
import { ApiError } from '../../errors/api-error.js';
import { prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import type { ConversionRecord } from '../../store/records.js';
import { draftId } from '../draft-id.js';
import { conversionEventSchema, hashedUserData, type ConversionEvent } from './events.js';

/** Members the sandbox writes on every record; an event member of the same name is not kept (README "Conversion events"). */
const RECORD_MEMBERS = new Set(['id', 'object', 'ad_account_id', 'destination_id', 'test', 'test_code', 'received_at']);

/** The event's members as sent, less those the record's own members replace; user data hashed. */
function eventMembers(event: ConversionEvent): Pick<ConversionRecord, 'event_name' | 'event_time'> & Record<string, unknown> {
  const members: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(event)) {
    if (!RECORD_MEMBERS.has(name)) members[name] = name === 'user_data' ? hashedUserData(value) : value;
  }
  return { ...members, event_name: event.event_name, event_time: event.event_time };
}

export interface SendConversionsBody {
  account_id: string;
  destination_id: string;
  events: ConversionEvent[];
  test_code?: string;
}

export const sendConversions = defineOperation<SendConversionsBody>({
  operationId: 'sendConversions',
  method: 'POST',
  path: '/ads/conversions',
  tag: 'Ads',
  specSection: '4.6',
  summary: 'Send conversions',
  description:
    'Sends server-side conversion events to an ad platform destination. `account_id` is the ad account (`adacct_…`) and `destination_id` ' +
    'one of its destinations (`addest_…`). With `test_code` the events are recorded as test events.',
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['account_id', 'destination_id', 'events'],
    properties: {
      account_id: prefixedIdSchema('adacct', 'The ad account.'),
      destination_id: prefixedIdSchema('addest', 'A destination of that ad account.'),
      events: { type: 'array', items: conversionEventSchema, description: 'The events to record; each needs a name and a time.' },
      test_code: { type: 'string', description: 'Marks the events as test events (e.g. `TEST12345`).' },
    },
  },
  bodyRequired: true,
  success: {
    status: 200,
    description: 'The conversion result: an empty object.',
    schema: { title: 'ConversionResult', type: 'object', additionalProperties: false, properties: {} },
  },
  errors: [400, 401, 403, 404, 422, 429, 500],
  handler({ body, store, sandbox }) {
    const destinations = store.collection('ad_destinations');
    if (!destinations.find((d) => d.account_id === body.account_id)) {
      throw new ApiError('resource_missing', { param: 'account_id', message: `No such ad account: '${body.account_id}'.` });
    }
    const destination = destinations.get(body.destination_id);
    if (!destination || destination.account_id !== body.account_id) {
      throw new ApiError('resource_missing', {
        param: 'destination_id',
        message: `No such destination in ad account '${body.account_id}': '${body.destination_id}'.`,
      });
    }
    const receivedAt = sandbox.timestamp();
    const record = (id: string, event: ConversionEvent): ConversionRecord => ({
      id,
      object: 'conversion',
      ad_account_id: body.account_id,
      destination_id: destination.id,
      ...eventMembers(event),
      test: body.test_code !== undefined,
      test_code: body.test_code ?? null,
      received_at: receivedAt,
    });
    // Every event is recorded, or none (docs/api.md "Record budget").
    store.admit(
      'events',
      body.events.map((event) => record(draftId('conv'), event)),
    );
    const conversions = store.write('conversions');
    for (const event of body.events) conversions.insert(record(sandbox.idsOf(store).next('conv'), event), 'events');
    return { body: {} };
  },
});

export const adOperations = [sendConversions];
