/** Event sessions: spec §4.12, §2.8. Only `event` experiences have sessions. */
import { validationFailed } from '../../errors/api-error.js';
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import type { EventSessionRecord } from '../../store/records.js';
import { draftId } from '../draft-id.js';
import { heaviestMember, required } from '../lookup.js';
import {
  createEventSessionBodySchema,
  DEFAULT_SESSION_MINUTES,
  eventSessionSchema,
  eventSessionView,
  type CreateEventSessionBody,
} from './schemas.js';

/** Message texts of this operation's 422s, shared with the tests. */
export const EVENT_SESSION_MESSAGES = {
  notAnEvent: (type: string) => `must be an experience of type 'event' (this one is '${type}')`,
  endBeforeStart: 'must be after start_time',
};

/** Second precision, like every timestamp the sandbox writes; the order check uses the rounded values. */
function toWholeSecond(timestamp: string): number {
  return Math.floor(Date.parse(timestamp) / 1000) * 1000;
}

export const createEventSession = defineOperation<CreateEventSessionBody, Record<string, never>, { experience_id: string }>({
  operationId: 'createEventSession',
  method: 'POST',
  path: '/experiences/{experience_id}/event_sessions',
  tag: 'Event sessions',
  specSection: '4.12',
  summary: 'Create event session',
  description:
    "Schedules a session of an `event` experience. `start_time` is required; omitted fields take the documented defaults (`title`: the experience's name). " +
    'An experience of another type answers 422 naming `experience_id`.',
  params: { type: 'object', required: ['experience_id'], properties: { experience_id: prefixedIdSchema('exp', 'An event experience.') } },
  body: createEventSessionBodySchema,
  bodyRequired: true,
  success: { status: 201, description: 'The new event session.', schema: eventSessionSchema },
  errors: [400, 401, 403, 404, 422, 429, 500],
  handler({ params, body, store, sandbox, events }) {
    const experience = required(
      store.collection('experiences').get(params.experience_id),
      'experience',
      params.experience_id,
      'experience_id',
    );
    if (experience.type !== 'event') throw validationFailed({ experience_id: [EVENT_SESSION_MESSAGES.notAnEvent(experience.type)] });
    const start = toWholeSecond(body.start_time);
    const end = body.end_time === undefined ? start + DEFAULT_SESSION_MINUTES * 60_000 : toWholeSecond(body.end_time);
    if (end <= start) throw validationFailed({ end_time: [EVENT_SESSION_MESSAGES.endBeforeStart] });
    const record = (id: string): EventSessionRecord => ({
      id,
      object: 'event_session',
      experience_id: experience.id,
      title: body.title ?? experience.name,
      description: body.description,
      start_time: isoTimestamp(start),
      end_time: isoTimestamp(end),
      location_type: body.location_type,
      location_details: body.location_details,
      allow_rsvp: body.allow_rsvp,
      capacity: body.capacity,
      repeat_frequency: body.repeat_frequency,
      created_at: sandbox.timestamp(),
    });
    // Before the id is drawn: a refused session leaves nothing behind (docs/api.md "Record budget").
    const param = heaviestMember(body);
    store.admit(param, [record(draftId('evs'))]);
    const session = store.write('event_sessions').insert(record(sandbox.idsOf(store).next('evs')), param);
    const view = eventSessionView(session);
    events.emit('event_session.created', view);
    return { body: view };
  },
});

export const eventSessionOperations = [createEventSession];
