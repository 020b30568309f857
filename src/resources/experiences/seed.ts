/**
 * Experiences of a new account: pinned ones first, then the ten types in turn (so a template with at
 * least ten experiences covers every type), each with realistic type-specific `details`.
 * `active_grants_count` starts at 0; the price-variant seeder grants access and recounts.
 */
import type { SeedContext } from '../../fixture/account-template.js';
import { EXPERIENCE_TYPES } from '../../store/records.js';
import { pastTimestamp, slugify, topic, uniqueSlug, withPinned } from '../seed-support.js';
import { DETAILS } from './details.js';

/** A generator: a derivation step per experience (src/fixture/account-template.ts). */
export function* seedExperiences({ store, faker, ids, now, count, pinned }: SeedContext): Generator<void, void, undefined> {
  const experiences = store.write('experiences');
  const slugs = new Set((pinned.experiences ?? []).flatMap((e) => (e.slug ? [e.slug] : [])));
  const entries = withPinned(pinned.experiences, count('experiences', 12));
  let turn = 0;
  for (const pin of entries) {
    const type = pin?.type ?? EXPERIENCE_TYPES[turn++ % EXPERIENCE_TYPES.length]!;
    const kind = DETAILS[type];
    const subject = topic(faker);
    const name = pin?.name ?? kind.name(subject);
    const slug = pin?.slug ?? uniqueSlug(slugify(name), slugs);
    const created = pastTimestamp(faker, now);
    const accessType = faker.helpers.weightedArrayElement([
      { value: 'private', weight: 6 },
      { value: 'public', weight: 3 },
      { value: 'secret', weight: 1 },
    ] as const);
    experiences.insert({
      id: pin?.id ?? ids.next('exp'),
      object: 'experience',
      name,
      slug,
      description: pin?.description ?? kind.description(subject),
      access_type: pin?.access_type ?? accessType,
      created_at: created,
      updated_at: created,
      type,
      active_grants_count: 0,
      details: kind.generate(faker, ids, slug),
    });
    yield;
  }
}
