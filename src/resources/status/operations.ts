/** The status report: spec §4.13, §2.11, values by plan per §8. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { rateLimitSubject } from '../../protocol/rate-limit.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, timestampSchema } from '../../operations/schemas.js';
import { defineOperation, type JsonSchema } from '../../operations/types.js';
import type { Plan } from '../../store/records.js';

/** Task-run limits per plan. The spec only says they "follow the caller's plan"; values are ours. */
export const TASK_RUN_LIMITS: Record<
  Plan,
  { max_concurrent_per_account: number; max_concurrent_per_task: number; max_runtime_seconds: number }
> = {
  free: { max_concurrent_per_account: 2, max_concurrent_per_task: 1, max_runtime_seconds: 300 },
  paid: { max_concurrent_per_account: 20, max_concurrent_per_task: 5, max_runtime_seconds: 3600 },
};

const integer: JsonSchema = { type: 'integer', minimum: 0 };
const strictObject = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

export const statusSchema: JsonSchema = {
  title: 'StatusReport',
  ...strictObject({
    limits: strictObject({
      rate_limit: strictObject({
        tier: { enum: ['free', 'paid'] },
        limit: integer,
        window_seconds: integer,
        remaining: integer,
        resets_at: timestampSchema,
      }),
      task_runs: strictObject({ max_concurrent_per_account: integer, max_concurrent_per_task: integer, max_runtime_seconds: integer }),
      pagination: strictObject({ default_limit: integer, max_limit: integer }),
    }),
  }),
};

export const getStatus = defineOperation<undefined, Record<string, never>>({
  operationId: 'getStatus',
  method: 'GET',
  path: '/status',
  tag: 'Status',
  specSection: '4.13',
  summary: 'Get status',
  description: "Reports the caller's limits. Clients should read them here instead of hard-coding them.",
  query: { type: 'object', additionalProperties: false, properties: {} },
  success: { status: 200, description: 'The status report.', schema: statusSchema },
  errors: [401, 429, 500],
  // Reads the account record, its keys or its jobs: none of them seeded.
  seededRecords: false,
  handler({ store, apiKey, sandbox }) {
    const tier = store.account.plan;
    // The live counter after this very request was counted (peek does not count again).
    const { subject } = rateLimitSubject({ kind: 'api_key', account: store, key: apiKey });
    const standing = sandbox.rateLimiter.peek(subject, tier, sandbox.clock.now());
    return {
      body: {
        limits: {
          rate_limit: {
            tier,
            limit: standing.limit,
            window_seconds: standing.windowSeconds,
            remaining: standing.remaining,
            resets_at: isoTimestamp(standing.resetAt),
          },
          task_runs: TASK_RUN_LIMITS[tier],
          pagination: { default_limit: DEFAULT_PAGE_LIMIT, max_limit: MAX_PAGE_LIMIT },
        },
      },
    };
  },
});

export const statusOperations = [getStatus];
