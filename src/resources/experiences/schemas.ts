/** Experience of spec §2.7. */
import { timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { viewFrom } from '../view.js';
import { ACCESS_TYPES, EXPERIENCE_TYPES, type ExperienceRecord } from '../../store/records.js';
import { detailsSchemaByType } from './details.js';

export const experienceSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'name', 'slug', 'description', 'access_type', 'created_at', 'updated_at', 'type', 'active_grants_count', 'details'],
  properties: {
    id: { type: 'string', pattern: '^exp_' },
    object: { const: 'experience' },
    name: { type: 'string' },
    slug: { type: 'string' },
    description: { type: 'string' },
    access_type: { enum: ACCESS_TYPES },
    created_at: timestampSchema,
    updated_at: timestampSchema,
    type: { enum: EXPERIENCE_TYPES },
    active_grants_count: { type: 'integer', minimum: 0 },
    details: { type: 'object', description: 'Type-specific; see the README for the members of each type.' },
  },
  allOf: detailsSchemaByType(),
};

export const experienceView = viewFrom<ExperienceRecord>(experienceSchema);
