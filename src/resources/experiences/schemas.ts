/**
 * Experience of spec §2.7: the members every type shares, and `details` of the type's own shape.
 * The schema is a `oneOf` of one closed variant per type, told apart by `type` (an OpenAPI
 * `discriminator`), so generated clients narrow `details` when they test `type`.
 * It accepts exactly what one object with an `if type = X then details is X's` per type accepted.
 */
import { discriminatedUnion, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { viewFrom } from '../view.js';
import { ACCESS_TYPES, EXPERIENCE_TYPES, type ExperienceRecord, type ExperienceType } from '../../store/records.js';
import { detailsSchemaFor, pascalCase } from './details.js';

/** Every member, in the order of every Experience body; `type` and `details` are narrowed per variant. */
const experienceProperties: Record<string, JsonSchema> = {
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
};

/** The Experience of one type (`CourseExperience`, …). */
function experienceVariant(type: ExperienceType): JsonSchema {
  return {
    title: `${pascalCase(type)}Experience`,
    type: 'object',
    additionalProperties: false,
    required: Object.keys(experienceProperties),
    properties: {
      ...experienceProperties,
      type: { const: type },
      details: { ...detailsSchemaFor(type), description: `The members of a \`${type}\` experience.` },
    },
  };
}

export const experienceSchema: JsonSchema = discriminatedUnion('Experience', 'type', EXPERIENCE_TYPES.map(experienceVariant));

export const experienceView = viewFrom<ExperienceRecord>({ properties: experienceProperties });
