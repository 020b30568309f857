/** Event sessions of a new account: upcoming sessions of every `event` experience, a week apart. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import { pastTimestamp } from '../seed-support.js';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

export function seedEventSessions({ store, faker, ids, now, count }: SeedContext): void {
  const sessions = store.write('event_sessions');
  const perEvent = count('event_sessions_per_event', 2);
  for (const experience of store.write('experiences').filter((e) => e.type === 'event')) {
    // The first session starts at 17:00 UTC a few days from now; the others follow weekly.
    const firstDay = Math.floor(now / DAY_MS) + faker.number.int({ min: 2, max: 10 });
    const duration = faker.helpers.arrayElement([45, 60, 90]) * 60_000;
    for (let i = 0; i < perEvent; i++) {
      const start = (firstDay + 7 * i) * DAY_MS + 17 * HOUR_MS;
      const online = faker.datatype.boolean({ probability: 0.8 });
      const locationType = online ? faker.helpers.arrayElement(['zoom', 'google_meet', 'custom_link'] as const) : 'physical_address';
      sessions.insert({
        id: ids.next('evs'),
        object: 'event_session',
        experience_id: experience.id,
        title: `${experience.name}: session ${i + 1}`,
        description:
          i === 0 ? 'Kick-off: the plan, the tools, and a first exercise together.' : 'Hands-on practice and live feedback on your work.',
        start_time: isoTimestamp(start),
        end_time: isoTimestamp(start + duration),
        location_type: locationType,
        location_details: locationDetails(faker, locationType),
        allow_rsvp: true,
        capacity: faker.helpers.arrayElement([null, 25, 50, 100]),
        repeat_frequency: 'never',
        created_at: pastTimestamp(faker, now, 30),
      });
    }
  }
}

function locationDetails(faker: SeedContext['faker'], type: 'zoom' | 'google_meet' | 'custom_link' | 'physical_address'): string {
  switch (type) {
    case 'zoom':
      return `https://zoom.us/j/${faker.string.numeric({ length: 11, allowLeadingZeros: false })}`;
    case 'google_meet':
      return `https://meet.google.com/${[3, 4, 3].map((length) => faker.string.alpha({ length, casing: 'lower' })).join('-')}`;
    case 'custom_link':
      return `https://${faker.internet.domainName()}/live`;
    case 'physical_address':
      return `${faker.location.streetAddress()}, ${faker.location.city()}`;
  }
}
