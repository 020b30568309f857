/**
 * Drafts of the records a request is about to write, measured against the account's record budget
 * before any id is drawn (src/store/store.ts `admit`): a refused request then leaves the id stream,
 * and everything else, as it was.
 */

/** An id as long as the ones `ids.next(prefix)` draws (`<prefix>_` and 24 characters): a draft weighs what its record will. */
export function draftId(prefix: string): string {
  return `${prefix}_${'0'.repeat(24)}`;
}
