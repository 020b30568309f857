/** Lookups shared by the operations; all go through the caller's AccountStore, so they are tenant-scoped. */
import { resourceMissing } from '../errors/api-error.js';
import type { ReadCollection } from '../store/collection.js';

/**
 * A record named by its prefixed id (`exp_…`) or by its slug (spec §4.10, §4.11). Slugs never contain
 * `_`, so a value that starts with the prefix is always an id.
 */
export function findByIdOrSlug<T extends { id: string; slug: string }>(
  collection: ReadCollection<T>,
  prefix: string,
  idOrSlug: string,
): T | undefined {
  return idOrSlug.startsWith(`${prefix}_`) ? collection.get(idOrSlug) : collection.find((record) => record.slug === idOrSlug);
}

/** The record, or 404 `resource_missing` naming `param`. */
export function required<T>(record: T | undefined, kind: string, id: string, param: string): T {
  if (record === undefined) throw resourceMissing(kind, id, param);
  return record;
}

/**
 * The member of a body that weighs the most as JSON: the one a refusal by the record budget names
 * when a record is made of several members a client sent (src/store/record-meter.ts).
 */
export function heaviestMember(body: object): string {
  let heaviest = 'body';
  let most = -1;
  for (const [name, value] of Object.entries(body)) {
    const size = JSON.stringify(value)?.length ?? 0;
    if (size > most) [heaviest, most] = [name, size];
  }
  return heaviest;
}
