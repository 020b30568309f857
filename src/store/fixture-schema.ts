/**
 * The JSON Schema of fixture files. Its validator is generated ahead of time from this module
 * (scripts/generate-fixture-validator.ts), so nothing imported here may import that generated code.
 */
import { FIXTURE_JOBS_SCHEMA } from '../jobs/settings.js';
import { PINNED_RECORDS_SCHEMA } from './pinned-records.js';

const idPattern = (prefix: string) => `^${prefix}_[A-Za-z0-9_]{1,64}$`;

export const FIXTURE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'accounts', 'template'],
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string' },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'plan', 'api_keys'],
        properties: {
          id: { type: 'string', pattern: idPattern('acct') },
          name: { type: 'string', minLength: 1 },
          plan: { enum: ['free', 'paid'] },
          credits: { type: 'integer', minimum: 0 },
          populate: { type: 'boolean' },
          pinned: PINNED_RECORDS_SCHEMA,
          api_keys: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'token'],
              properties: {
                id: { type: 'string', pattern: idPattern('key') },
                name: { type: ['string', 'null'] },
                token: { type: 'string', minLength: 8, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
                access: { enum: ['full', 'read_only'] },
                expires_at: { type: ['string', 'null'], format: 'date-time' },
              },
            },
          },
        },
      },
    },
    template: {
      type: 'object',
      additionalProperties: false,
      required: ['credits', 'counts'],
      properties: {
        credits: {
          type: 'object',
          additionalProperties: false,
          required: ['free', 'paid'],
          properties: { free: { type: 'integer', minimum: 0 }, paid: { type: 'integer', minimum: 0 } },
        },
        counts: { type: 'object', additionalProperties: { type: 'integer', minimum: 0, maximum: 100000 } },
      },
    },
    deprecations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operation_id', 'deprecated_at', 'sunset', 'link'],
        properties: {
          operation_id: { type: 'string', minLength: 1 },
          deprecated_at: { type: 'string', format: 'date-time' },
          sunset: { type: 'string', format: 'date-time' },
          link: { type: 'string', minLength: 1 },
        },
      },
    },
    jobs: FIXTURE_JOBS_SCHEMA,
  },
} as const;
