/**
 * The reusable parts of the OpenAPI document: the headers every /v1 response carries (contract §2,
 * spec §4 common rules, §8, §9.3), the Idempotency-Key parameter (§4, §8), the bearer scheme (§5)
 * and the error envelope (§7.1), narrowed per status to the codes of the error catalog.
 */
import { ERROR_CATALOG, type CatalogEntry } from '../errors/catalog.js';
import { errorEnvelopeSchema } from '../operations/schemas.js';
import type { JsonSchema } from '../operations/types.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `required` is the usual use; a use that differs is written out in place (see `headerUse`). */
type HeaderObject = { description: string; required: boolean; schema: JsonSchema; example?: string };

const integerText = (description: string, example: string): HeaderObject => ({
  description,
  required: true,
  schema: { type: 'string', pattern: '^[0-9]+$' },
  example,
});

/** RFC 9651 items such as `"default";q=600;w=60`: a quoted policy name and integer parameters. */
const STRUCTURED_ITEM_PATTERN = '^"[^"]+"(;[a-z][a-z0-9_.*-]*=[0-9]+)+$';

/** Header components by name (`#/components/headers/<name>`), keyed as they are sent. */
export const HEADER_COMPONENTS = {
  'Request-Id': {
    description: 'Identifies this request; quote it when reporting a problem (spec §7.3.4). Sent on every response.',
    required: true,
    schema: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
    example: 'req_000000000001',
  },
  'X-Request-Id': {
    description: 'The same value as `Request-Id`, under the name the guide uses.',
    required: true,
    schema: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
    example: 'req_000000000001',
  },
  RateLimit: {
    description: 'Current standing as an RFC 9651 structured field: `"default";r=<remaining>;t=<seconds until reset>` (spec §8).',
    required: true,
    schema: { type: 'string', pattern: STRUCTURED_ITEM_PATTERN },
    example: '"default";r=599;t=60',
  },
  'RateLimit-Policy': {
    description: 'The quota as an RFC 9651 structured field: `"default";q=<requests>;w=<window seconds>` (spec §8).',
    required: true,
    schema: { type: 'string', pattern: STRUCTURED_ITEM_PATTERN },
    example: '"default";q=600;w=60',
  },
  'X-RateLimit-Limit': integerText('Maximum requests in the window (legacy, spec §8).', '600'),
  'X-RateLimit-Remaining': integerText('Requests left in the window (legacy, spec §8).', '599'),
  'X-RateLimit-Reset': integerText('Unix epoch seconds at which the window resets (legacy, spec §8).', '1768478460'),
  'Retry-After': integerText('Seconds to wait before retrying (spec §8).', '60'),
  'Idempotent-Replayed': {
    description: 'Present, with the value `true`, when this response replays the first response to the same Idempotency-Key (spec §8).',
    required: false,
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
  Deprecation: {
    description: 'RFC 9745 structured-field date: `@` and the Unix time at which the operation became deprecated (spec §9.3).',
    required: false,
    schema: { type: 'string', pattern: '^@-?[0-9]+$' },
    example: '@1767225600',
  },
  Sunset: {
    description: 'RFC 8594 HTTP-date after which the operation stops responding; at least six months after Deprecation (spec §9.3).',
    required: false,
    schema: {
      type: 'string',
      pattern:
        '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
    },
    example: 'Sat, 01 Aug 2026 00:00:00 GMT',
  },
  Link: {
    description: 'Migration notes: `<url>; rel="deprecation"` (spec §9.3).',
    required: false,
    schema: { type: 'string', pattern: '<[^>]*>\\s*;\\s*rel="?deprecation"?' },
    example: '<https://example.com/migrations/v2>; rel="deprecation"',
  },
} as const satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/** On every /v1 response, errors included (contract §2). */
export const COMMON_HEADERS: readonly HeaderName[] = [
  'Request-Id',
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
export const DEPRECATION_HEADERS: readonly HeaderName[] = ['Deprecation', 'Sunset', 'Link'];

export function headerRef(name: HeaderName): { $ref: string } {
  return { $ref: `#/components/headers/${name}` };
}

/** A `$ref` to the component when its `required` fits this use; otherwise a copy that says so. */
export function headerUse(name: HeaderName, required: boolean): Record<string, unknown> {
  const component: HeaderObject = HEADER_COMPONENTS[name];
  return component.required === required ? headerRef(name) : { ...component, required };
}

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a write safe to retry (spec §4, §8): the same key with the same body within 24 hours replays the first response; the same key with another body is an error. Scoped to the account.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  example: 'order-2026-01-15-0001',
};

export const BEARER_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description:
    'Every operation needs `Authorization: Bearer <API_KEY>` (spec §5). Missing, malformed, revoked or expired keys get 401 `authentication_required`; a read-only key gets 403 `forbidden` on writes.',
};

/** Error codes of the catalog answered with `status`, in catalog order. */
export function codesForStatus(status: number): Array<[string, CatalogEntry]> {
  return (Object.entries(ERROR_CATALOG) as Array<[string, CatalogEntry]>).filter(([, entry]) => entry.status === status);
}

/**
 * The envelope's name in the document: not `Error`, which generated clients would emit as a type
 * that shadows the global `Error`.
 */
export const ERROR_SCHEMA_NAME = 'ErrorEnvelope';

export function errorSchemaName(status: number): string {
  return `${ERROR_SCHEMA_NAME}${status}`;
}

/**
 * The envelope of one status (`ErrorEnvelope404`, …): the whole envelope of spec §7.1, closed, with
 * `code` and `type` limited to the catalog's codes for that status. Written out whole rather than as
 * an `allOf` over a shared envelope: generators then emit one plain type per status, and a closed
 * envelope stays closed (Redocly reads a narrowing `allOf` part as closed and refuses `message`).
 */
export function errorSchemaForStatus(status: number): JsonSchema {
  const codes = codesForStatus(status);
  const envelope = structuredClone(errorEnvelopeSchema) as JsonSchema & {
    properties: { error: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] } };
  };
  const error = envelope.properties.error;
  if (codes.length > 0) {
    error.properties.code = { enum: codes.map(([code]) => code) };
    error.properties.type = { enum: [...new Set(codes.map(([, entry]) => entry.type))] };
  }
  // Spec §7.1: `errors` is present on 422; §8 and contract §3.5: a 429 carries the caller's plan_tier.
  if (status === 422) error.required.push('errors');
  if (status === 429) error.required.push('plan_tier');
  return { title: errorSchemaName(status), ...envelope };
}

/** One named example per catalog code of the status, e.g. `{ resource_missing: { value: … } }`. */
export function errorExamples(status: number): Record<string, { summary: string; value: unknown }> {
  const examples: Record<string, { summary: string; value: unknown }> = {};
  for (const [code, entry] of codesForStatus(status)) {
    const error: Record<string, unknown> = { type: entry.type, code, message: entry.message };
    if (status === 422) Object.assign(error, { param: 'name', errors: { name: ['must be of type string'] } });
    if (code === 'parameter_missing' || code === 'parameter_unknown') error.param = 'name';
    if (status === 429) error.plan_tier = 'free';
    examples[code] = { summary: entry.message, value: { error } };
  }
  return examples;
}
