/** Event sessions of a new account: upcoming sessions of every `event` experience, a week apart. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import type { LOCATION_TYPES } from '../../store/records.js';
import { groupBy, pastTimestamp } from '../seed-support.js';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

export function seedEventSessions({ store, faker, ids, now, count, pinned }: SeedContext): void {
  const sessions = store.write('event_sessions');
  const perEvent = count('event_sessions_per_event', 2);
  // Grouped once: pinned records may come inline from a request, so nothing here is quadratic in them.
  const pinsByEvent = groupBy(pinned.event_sessions ?? [], (p) => p.experience_id);
  for (const experience of store.write('experiences').filter((e) => e.type === 'event')) {
    // Pinned sessions of an event come first and count toward its `event_sessions_per_event`.
    const pinnedHere = pinsByEvent.get(experience.id) ?? [];
    // The first session starts at 17:00 UTC a few days from now; the others follow weekly.
    const firstDay = Math.floor(now / DAY_MS) + faker.number.int({ min: 2, max: 10 });
    const duration = faker.helpers.arrayElement([45, 60, 90]) * 60_000;
    for (let i = 0; i < Math.max(perEvent, pinnedHere.length); i++) {
      const pin = pinnedHere[i];
      // Every value is drawn whatever the pin sets, so a pinned value never shifts other records' data.
      const seededStart = (firstDay + 7 * i) * DAY_MS + 17 * HOUR_MS;
      const online = faker.datatype.boolean({ probability: 0.8 });
      const seededType = online ? faker.helpers.arrayElement(['zoom', 'google_meet', 'custom_link'] as const) : 'physical_address';
      const id = pin?.id ?? ids.next('evs');
      const seededDetails = locationDetails(faker, seededType);
      const capacity = faker.helpers.arrayElement([null, 25, 50, 100]);
      const createdAt = pastTimestamp(faker, now, 30);
      const start = pin?.start_time !== undefined ? Date.parse(pin.start_time) : seededStart;
      const end = pin?.end_time !== undefined ? Date.parse(pin.end_time) : start + duration;
      const locationType = pin?.location_type ?? seededType;
      sessions.insert({
        id,
        object: 'event_session',
        experience_id: experience.id,
        title: pin?.title ?? `${experience.name}: session ${i + 1}`,
        description:
          pin?.description ??
          (i === 0 ? 'Kick-off: the plan, the tools, and a first exercise together.' : 'Hands-on practice and live feedback on your work.'),
        start_time: isoTimestamp(start),
        end_time: isoTimestamp(end),
        location_type: locationType,
        // A pinned location type without details gets details of that type, not of the seeded one.
        location_details: pin?.location_details ?? (locationType === seededType ? seededDetails : placeholderDetails(locationType)),
        allow_rsvp: pin?.allow_rsvp ?? true,
        capacity: pin?.capacity !== undefined ? pin.capacity : capacity,
        repeat_frequency: pin?.repeat_frequency ?? 'never',
        created_at: createdAt,
      });
    }
  }
}

/** Details of a pinned location type, without drawing: the seeded draws stay as they were. */
function placeholderDetails(type: (typeof LOCATION_TYPES)[number]): string {
  switch (type) {
    case 'zoom':
      return 'https://zoom.us/j/10000000000';
    case 'google_meet':
      return 'https://meet.google.com/abc-defg-hij';
    case 'custom_link':
      return 'https://example.com/live';
    case 'physical_address':
      return '1 Example Street, Springfield';
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
