/** The Job of spec §2.3: every field always present, null or 0 until known (README "Jobs"). */
import { nullableTimestampSchema, prefixedIdSchema, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { jobKind } from './kinds.js';
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
      credits_used: {
        type: 'integer',
        minimum: 0,
        description: 'Credits charged: 0 until the job completes, and for ever if it fails or is cancelled.',
      },
      provider_request_id: { type: ['string', 'null'], description: 'Null until processing starts.' },
      created_at: timestampSchema,
      started_at: { ...nullableTimestampSchema, description: 'Null until processing starts.' },
      completed_at: { ...nullableTimestampSchema, description: 'When the job ended (completed, failed or cancelled); null until then.' },
    },
  };
}

/** A Job as /v1 answers it: the record's public fields and, once completed, the built result. */
export type JobBody = Pick<JobRecord, Exclude<(typeof JOB_FIELDS)[number], 'result'>> & { result: Record<string, unknown> | null };

/**
 * The public view: the fields of §2.3 in order (JOB_FIELDS), internal fields dropped. A completed
 * job's result is built here, from the seed, at every read (settling stays O(1) per job): the record never holds it,
 * and the same seed and input give the same bytes at every read.
 */
export function jobView(job: JobRecord, seed: string): JobBody {
  return viewWith(job, job.status === 'completed' ? jobKind(job.type).result(job, seed) : null);
}

/** `jobView` built a small step at a time (the kind's `resultInSteps`), the same bytes. */
export function* jobViewInSteps(job: JobRecord, seed: string): Generator<void, JobBody, void> {
  const kind = jobKind(job.type);
  if (job.status !== 'completed') return viewWith(job, null);
  return viewWith(job, kind.resultInSteps ? yield* kind.resultInSteps(job, seed) : kind.result(job, seed));
}

function viewWith(job: JobRecord, result: Record<string, unknown> | null): JobBody {
  const view: Record<string, unknown> = {};
  for (const field of JOB_FIELDS) view[field] = field === 'result' ? result : job[field];
  return view as JobBody;
}
