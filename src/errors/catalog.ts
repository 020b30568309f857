/**
 * Every error code the sandbox can answer, with its HTTP status and envelope type. Spec §7.2 is the
 * source; `extension: true` marks codes the spec does not list, each documented in the README's
 * error table (a test keeps the two in step).
 */
import { MESSAGES } from './messages.js';

export type ErrorType = 'api_error' | 'invalid_request_error' | 'validation_error';

export interface CatalogEntry {
  status: number;
  type: ErrorType;
  message: string;
  extension?: true;
}

export const ERROR_CATALOG = {
  bad_request: { status: 400, type: 'invalid_request_error', message: 'The request is malformed or has invalid parameters.' },
  parameter_missing: { status: 400, type: 'invalid_request_error', message: 'A required parameter is missing.' },
  parameter_unknown: { status: 400, type: 'invalid_request_error', message: 'The request contains an unknown parameter.' },
  authentication_required: {
    status: 401,
    type: 'invalid_request_error',
    message: 'Authentication required: send a valid API key as `Authorization: Bearer <API_KEY>`.',
  },
  forbidden: { status: 403, type: 'invalid_request_error', message: 'This credential does not have permission for this action.' },
  cross_site_request: {
    status: 403,
    type: 'invalid_request_error',
    message: 'The admin API answers only its own origin, on a loopback, bound or allowed host name.',
    extension: true,
  },
  resource_missing: { status: 404, type: 'invalid_request_error', message: 'No such resource.' },
  method_not_allowed: {
    status: 405,
    type: 'invalid_request_error',
    message: 'This method is not allowed on this path.',
    extension: true,
  },
  request_timeout: {
    status: 408,
    type: 'invalid_request_error',
    message: "The request did not arrive in full in time (Node's headersTimeout / requestTimeout).",
    extension: true,
  },
  headers_too_large: {
    status: 431,
    type: 'invalid_request_error',
    message: 'The request headers are larger than the server accepts (16 KiB in all).',
    extension: true,
  },
  idempotency_key_reused: {
    status: 400,
    type: 'invalid_request_error',
    message: 'This Idempotency-Key was already used with a different request.',
    extension: true,
  },
  idempotency_key_evicted: {
    status: 400,
    type: 'invalid_request_error',
    message:
      "This Idempotency-Key's first answer is no longer kept by the sandbox (its idempotency budget was full), so it can neither be replayed nor run again.",
    extension: true,
  },
  unsupported_media_type: {
    status: 415,
    type: 'invalid_request_error',
    message: 'The request body is sent in a content coding the sandbox cannot decode.',
    extension: true,
  },
  resource_exists: {
    status: 409,
    type: 'invalid_request_error',
    message: 'A resource with this id already exists.',
    extension: true,
  },
  record_too_large: {
    status: 422,
    type: 'validation_error',
    message: 'The write would make a record larger than the sandbox keeps (1 MiB of JSON); nothing was changed.',
    extension: true,
  },
  record_budget_exceeded: {
    status: 422,
    type: 'validation_error',
    message: "The write would bring the account's records past its record budget; nothing was changed.",
    extension: true,
  },
  validation_failed: { status: 422, type: 'validation_error', message: 'The request is well-formed but contains invalid data.' },
  rate_limit_exceeded: { status: 429, type: 'invalid_request_error', message: MESSAGES.rateLimited },
  insufficient_credits: {
    status: 402,
    type: 'api_error',
    message: 'The account does not have enough credits for this job.',
    extension: true,
  },
  internal_error: { status: 500, type: 'api_error', message: MESSAGES.internal },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function catalogEntry(code: ErrorCode): CatalogEntry {
  return ERROR_CATALOG[code];
}
