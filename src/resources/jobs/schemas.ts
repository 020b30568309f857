/** The Job of spec §2.3: every field always present, null or 0 until known (README "Jobs"). */
import { nullableTimestampSchema, prefixedIdSchema, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import type { JobRecord } from '../../store/records.js';

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

/** The fields of a Job, in the order of spec §2.3 (and of every Job body). */
export const JOB_FIELDS = [
  'id',
  'object',
  'type',
  'status',
  'model',
  'progress',
  'input',
  'result',
  'error',
  'error_code',
  'credits_used',
  'provider_request_id',
  'created_at',
  'started_at',
  'completed_at',
] as const;

/** A Job of one type: `input` and `result` are the type's own shapes. */
export function jobSchemaFor(kind: { type: string; model: string; input: JsonSchema; result: JsonSchema }): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: [...JOB_FIELDS],
    properties: {
      id: prefixedIdSchema('job'),
      object: { const: 'job' },
      type: { const: kind.type, description: 'Kind of job.' },
      status: { enum: [...JOB_STATUSES] },
      model: { const: kind.model, description: 'The engine that runs jobs of this type.' },
      progress: { type: 'integer', minimum: 0, maximum: 100, description: '0 while queued; 100 once completed.' },
      input: kind.input,
      result: { anyOf: [kind.result, { type: 'null' }], description: 'Null until the job completes.' },
      error: { type: ['string', 'null'], description: 'Message when failed; null otherwise.' },
      error_code: { type: ['string', 'null'], description: 'Code when failed; null otherwise.' },
      credits_used: { type: 'integer', minimum: 0, description: 'Credits charged: 0 until the job completes, and for ever if it fails or is cancelled.' },
      provider_request_id: { type: ['string', 'null'], description: 'Null until processing starts.' },
      created_at: timestampSchema,
      started_at: { ...nullableTimestampSchema, description: 'Null until processing starts.' },
      completed_at: { ...nullableTimestampSchema, description: 'When the job ended (completed, failed or cancelled); null until then.' },
    },
  };
}

/** The public view: the fields of §2.3 in order (JOB_FIELDS), internal fields dropped. */
export function jobView(job: JobRecord): Pick<JobRecord, (typeof JOB_FIELDS)[number]> {
  return Object.fromEntries(JOB_FIELDS.map((field) => [field, job[field]])) as Pick<JobRecord, (typeof JOB_FIELDS)[number]>;
}
