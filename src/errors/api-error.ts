import { catalogEntry, type ErrorCode, type ErrorType } from './catalog.js';
import { MESSAGES } from './messages.js';

export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors with no prototype. Field names often come from the request (a scenario
 * param, a metadata key): `errors['constructor'] ??= []` on a plain object finds Object's
 * constructor, and `errors['__proto__']` its prototype, instead of nothing.
 */
export function emptyFieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

export interface ApiErrorOptions {
  message?: string;
  param?: string;
  errors?: FieldErrors;
  /** Response headers that belong to this error (e.g. `Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  /** Extra members of the error object (e.g. `plan_tier` on a 429). */
  extra?: Record<string, unknown>;
  /**
   * Another HTTP status than the catalog's, for scenarios that override it (e.g. a 503 carrying
   * `internal_error`); the code's type is kept. Nothing else uses it.
   */
  status?: number;
}

/**
 * The one error type. Handlers and middlewares throw it; only the error-envelope middleware turns
 * it into a response, so no handler ever writes an error body or header itself.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry = catalogEntry(code);
    super(options.message ?? entry.message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? entry.status;
    this.type = entry.type;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  toBody(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.errors !== undefined) error.errors = this.errors;
    return { error: { ...error, ...this.extra } };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Shorthand for the most common throw: a resource that does not exist for this account. */
export function resourceMissing(kind: string, id: string, param?: string): ApiError {
  return new ApiError('resource_missing', {
    message: MESSAGES.noSuch(kind, id),
    ...(param === undefined ? {} : { param }),
  });
}

/**
 * 422 with every failing field: request validation's answer (src/operations/validation.ts), and
 * the handlers' for rules a schema cannot say.
 */
export function validationFailed(fields: FieldErrors): ApiError {
  const [param] = Object.keys(fields);
  return new ApiError('validation_failed', {
    message: MESSAGES.validationFailed,
    errors: fields,
    ...(param === undefined ? {} : { param }),
  });
}
