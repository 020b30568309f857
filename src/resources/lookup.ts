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
