/**
 * The one pagination mechanism of every list (spec §2.1, §4): newest first by creation (see
 * Collection), `starting_after` an id of the collection, `limit` 1..100 (validated with the query by
 * `paginatedQuery()`), `has_more` and `url` (the request path, `/v1` included, without the query).
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { Identified, IndexQuery, ReadCollection } from '../store/collection.js';

export interface ListQuery {
  limit: number;
  starting_after?: string | undefined;
}

export interface ListEnvelope<V> {
  object: 'list';
  data: V[];
  has_more: boolean;
  url: string;
}

export function listPage<T extends Identified, V = T>(
  collection: ReadCollection<T>,
  query: ListQuery,
  options: {
    url: string;
    /** The records this list is made of (e.g. one inbox's messages): others are neither listed nor valid cursors. */
    scope?: (record: T) => boolean;
    /** Query filters on top of the scope (`type`, `label`…). */
    filter?: (record: T) => boolean;
    /**
     * The records this list shows (its scope and query filters together) as an index bucket, in
     * place of `filter`: the page walks only those (O(log n + limit), however few match). `scope`
     * still vets the cursor, which need not match the filters.
     */
    index?: IndexQuery<T>;
    view?: (record: T) => V;
  },
): ListEnvelope<V> {
  const { scope, filter, index } = options;
  const cursor = query.starting_after === undefined ? undefined : collection.get(query.starting_after);
  const outOfScope = cursor !== undefined && scope !== undefined && !scope(cursor);
  const both = scope && filter ? (record: T) => scope(record) && filter(record) : (scope ?? filter);
  const page = outOfScope
    ? undefined
    : collection.page({ limit: query.limit, startingAfter: query.starting_after, ...(index ? { index } : { filter: both }) });
  if (!page) {
    throw new ApiError('bad_request', { param: 'starting_after', message: MESSAGES.unknownCursor(String(query.starting_after)) });
  }
  const view = options.view ?? ((record: T) => record as unknown as V);
  return { object: 'list', data: page.data.map(view), has_more: page.hasMore, url: options.url };
}
