/**
 * Drafts of the records a request is about to write, measured against the account's record budget
 * before any id is drawn (src/store/store.ts `admit`): a refused request then leaves the id stream,
 * and everything else, as it was.
 */

// Defined beside the id streams (src/random.ts), which the webhooks below this layer use too.
export { draftId } from '../random.js';
