/**
 * The one request-body limit. The HTTP layer refuses bodies over it (before and after undoing a
 * content coding), the journal never keeps a body past it, and a fixture file is read up to it.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The limit as the refusal names it on the wire: "The request body exceeds the 1mb limit." */
export const BODY_LIMIT = `${BODY_LIMIT_BYTES / (1024 * 1024)}mb`;
