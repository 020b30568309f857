/** Small helpers the account seeders share: past timestamps, slugs, creator-flavoured topics. */
import type { Faker } from '@faker-js/faker';
import { isoTimestamp } from '../clock/virtual-clock.js';

const DAY_MS = 24 * 3600 * 1000;

/** A timestamp up to `days` days before `now` (never after it). */
export function pastTimestamp(faker: Faker, now: number, days = 365): string {
  return isoTimestamp(now - faker.number.int({ min: 60_000, max: days * DAY_MS }));
}

/** `Live Photography Workshop` -> `live-photography-workshop`. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'item'
  );
}

/** `base`, or `base-2`, `base-3`… : the first not yet in `taken` (which it then joins). */
export function uniqueSlug(base: string, taken: Set<string>): string {
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

export const TOPICS = [
  'Photography',
  'Video Editing',
  'Copywriting',
  'Productivity',
  'Personal Finance',
  'Illustration',
  'Podcasting',
  'Home Cooking',
  'Music Production',
  'Strength Training',
  'UX Design',
  'Newsletter Growth',
] as const;

export function topic(faker: Faker): string {
  return faker.helpers.arrayElement(TOPICS);
}

/** A fixture's instant as the API writes instants (UTC, milliseconds): `2026-03-01T09:00:00+01:00` -> `2026-03-01T08:00:00Z`. */
export function normalInstant(instant: string): string;
export function normalInstant(instant: string | null): string | null;
export function normalInstant(instant: string | null): string | null {
  return instant === null ? null : isoTimestamp(Date.parse(instant));
}

/** Entries by key, each group in the order given (Map.groupBy, which Node 20 lacks). */
export function groupBy<T, K>(entries: readonly T[], key: (entry: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const entry of entries) {
    const k = key(entry);
    const group = groups.get(k);
    if (group) group.push(entry);
    else groups.set(k, [entry]);
  }
  return groups;
}

/** Pinned records first (their identity fixed by the fixture), then seeded ones up to `total`. */
export function withPinned<P>(pinned: readonly P[] | undefined, total: number): (P | undefined)[] {
  const list: (P | undefined)[] = [...(pinned ?? [])];
  while (list.length < total) list.push(undefined);
  return list;
}
