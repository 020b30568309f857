/**
 * Send conversions: spec §4.6, §2.10. The destination must exist in the caller's account and belong
 * to the named ad account (404 otherwise); every event is recorded in `conversions`, marked as a test
 * event when `test_code` is sent. The answer is the empty object of the reference's sample.
 */
import { ApiError } from '../../errors/api-error.js';
import { unixSeconds } from '../../clock/virtual-clock.js';
import { prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import { validationFailed } from '../../operations/validation.js';
import { conversionEventSchema, eventProblems, hashedUserData, MAX_EVENTS_PER_REQUEST, type ConversionEvent } from './events.js';

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
      events: { type: 'array', minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST, items: conversionEventSchema },
      test_code: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Marks the events as test events (e.g. `TEST12345`).' },
    },
  },
  bodyRequired: true,
  success: { status: 200, description: 'The conversion result: an empty object.', schema: { title: 'ConversionResult', type: 'object', additionalProperties: false, properties: {} } },
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
    const problems = eventProblems(body.events, unixSeconds(sandbox.now()));
    if (Object.keys(problems).length > 0) throw validationFailed(problems);
    const receivedAt = sandbox.timestamp();
    for (const event of body.events) {
      store.collection('conversions').insert({
        id: sandbox.ids.next('conv'),
        object: 'conversion',
        ad_account_id: body.account_id,
        destination_id: destination.id,
        event_name: event.event_name,
        event_time: event.event_time,
        event_id: event.event_id ?? null,
        action_source: event.action_source,
        event_source_url: event.event_source_url ?? null,
        user_data: hashedUserData(event.user_data),
        custom_data: event.custom_data ?? {},
        test: body.test_code !== undefined,
        test_code: body.test_code ?? null,
        received_at: receivedAt,
      });
    }
    return { body: {} };
  },
});

export const adOperations = [sendConversions];
