/** `event_session.created` (contract §4.3). */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { eventSessionSchema, eventSessionView } from './schemas.js';

export const eventSessionCreated = defineEvent({
  type: 'event_session.created',
  description: 'An event session was scheduled (`POST /v1/experiences/{experience_id}/event_sessions`).',
  object: eventSessionSchema,
  sample: ({ account, ids, now }) => {
    const session = newestRecord(account.collection('event_sessions').values());
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
});
