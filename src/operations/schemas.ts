/** Schema pieces shared by many operations. */
import type { JsonSchema } from './types.js';

export const DEFAULT_PAGE_LIMIT = 15;
export const MAX_PAGE_LIMIT = 100;

export const timestampSchema: JsonSchema = { type: 'string', format: 'date-time' };
export const nullableTimestampSchema: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

/** Query parameters every list takes (spec §4 common rules). */
export const paginationQueryProperties: Record<string, JsonSchema> = {
  starting_after: { type: 'string', minLength: 1, maxLength: 255, description: 'Id of the last item of the previous page.' },
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_LIMIT,
    default: DEFAULT_PAGE_LIMIT,
    description: `Page size, 1 to ${MAX_PAGE_LIMIT}.`,
  },
};

export function paginatedQuery(extra: Record<string, JsonSchema> = {}): JsonSchema {
  return { type: 'object', additionalProperties: false, properties: { ...extra, ...paginationQueryProperties } };
}

/**
 * An object whose members the API leaves open (metadata, form answers, custom data…), with any
 * members it does name. `additionalProperties: true` changes nothing for validation (JSON Schema
 * allows other members by default) but says so to generators: without it openapi-typescript types
 * `{ type: 'object' }` as `Record<string, never>` and refuses every value a client puts in it.
 */
export function openObjectSchema(schema: JsonSchema = {}): JsonSchema {
  return { type: 'object', ...schema, additionalProperties: true };
}

/** Where the OpenAPI document puts the schema titled `title` (src/openapi/document.ts hoists it there). */
export function componentRef(title: string): string {
  return `#/components/schemas/${title}`;
}

/**
 * A union of object variants told apart by one member that each variant fixes with `const` (an
 * Experience's `type`): a `oneOf` with OpenAPI's `discriminator`. Its `mapping` names the variant of
 * each value; without it generators type the member as the variant's component name
 * (`"CourseExperience"`) instead of its value (`"course"`). Every variant needs a PascalCase title,
 * which names it in the document. Validators read `discriminator` as an annotation: `oneOf` decides.
 */
export function discriminatedUnion(title: string, propertyName: string, variants: JsonSchema[]): JsonSchema {
  const mapping: Record<string, string> = {};
  for (const variant of variants) {
    const value = ((variant.properties as Record<string, JsonSchema> | undefined)?.[propertyName] ?? {}).const;
    if (typeof value !== 'string' || typeof variant.title !== 'string') {
      throw new Error(`${title}: every variant needs a title and a const ${propertyName}`);
    }
    mapping[value] = componentRef(variant.title);
  }
  // `type` beside the union: every variant is an object, and strict validators want it said.
  return { title, type: 'object', oneOf: variants, discriminator: { propertyName, mapping } };
}

/** The list envelope of spec §2.1; named `<Item>List` in the OpenAPI document when the item has a title. */
export function listEnvelopeSchema(item: JsonSchema): JsonSchema {
  return {
    ...(typeof item.title === 'string' ? { title: `${item.title}List` } : {}),
    type: 'object',
    additionalProperties: false,
    required: ['object', 'data', 'has_more', 'url'],
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items: item },
      has_more: { type: 'boolean' },
      url: { type: 'string' },
    },
  };
}

/** The error envelope of spec §7.1. */
export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      // Closed, so the OpenAPI document and the response contract tests catch a stray member.
      additionalProperties: false,
      required: ['type', 'code', 'message'],
      properties: {
        type: { enum: ['api_error', 'invalid_request_error', 'validation_error'] },
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: 'string' },
        errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        plan_tier: { enum: ['free', 'paid'] },
      },
    },
  },
};

/** A prefixed id (spec §1): raw database ids are refused where a prefixed one is required. */
export function prefixedIdSchema(prefix: string, description?: string): JsonSchema {
  return { type: 'string', pattern: `^${prefix}_[A-Za-z0-9_]+$`, ...(description ? { description } : {}) };
}
