/** Contract §5.1: `/__admin/findings`, where clients broke the service's rules (docs/findings.md). */
import { ApiError } from '../errors/api-error.js';
import { RULE_NAMES, SEVERITIES, UnknownFindingCursor, type FindingFilter } from '../findings/findings.js';
import { findingsModule } from '../findings/world-module.js';
import { BODY_ARRIVAL_WAIT_MS, bodiesArrived } from '../http/journal.js';
import type { JsonSchema } from '../operations/types.js';
import { deletedCountSchema, findingSchema, listSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

/** `limit` of the listing (contract §5.1). */
export const FINDINGS_PAGE = { default: 15, max: 100 } as const;

const id: JsonSchema = { type: 'string', minLength: 1 };
const listQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: id,
    api_key_id: id,
    rule: { type: 'string', enum: RULE_NAMES },
    severity: { type: 'string', enum: [...SEVERITIES] },
    starting_after: id,
    limit: { type: 'integer', minimum: 1, maximum: FINDINGS_PAGE.max, default: FINDINGS_PAGE.default },
  },
};
const clearQuery: JsonSchema = { type: 'object', additionalProperties: false, properties: { account_id: id } };

export const FINDINGS_OPERATIONS = [
  adminOperation({
    route: 'GET /findings',
    summary: 'Findings, newest first',
    description:
      "Where clients broke the service's rules (docs/findings.md). An unknown `rule` or `severity` is 422; a `starting_after` naming no finding kept is 400.",
    client: ['admin.findings.list()', 'tenant.findings()'],
    query: listQuery,
    answer: { status: 200, description: 'A page of findings, newest first.', schema: listSchema(findingSchema, 'FindingList') },
    errors: [400, 422],
    handler: async (ctx, request) => {
      // One world for the whole listing: a reset meanwhile must not list another world's findings.
      const world = ctx.sandbox.world;
      const instance = world.module(findingsModule);
      // A request answered before its body was read is judged once the body has arrived.
      await bodiesArrived(world.journal);
      await instance?.settled(BODY_ARRIVAL_WAIT_MS);
      try {
        const page = instance?.findings?.list(request.query as FindingFilter) ?? { data: [], has_more: false };
        return { object: 'list' as const, data: page.data, has_more: page.has_more };
      } catch (error) {
        if (!(error instanceof UnknownFindingCursor)) throw error;
        throw new ApiError('bad_request', {
          param: 'starting_after',
          message: `No finding '${error.cursor}' is kept (cleared, reset, or over the bound).`,
        });
      }
    },
  }),
  adminOperation({
    route: 'DELETE /findings',
    summary: 'Clear findings',
    description: 'All of them, or one account’s (`account_id`). What the rules remember of past requests stays.',
    client: ['admin.findings.clear()'],
    query: clearQuery,
    answer: { status: 200, description: 'How many findings were removed.', schema: deletedCountSchema },
    errors: [],
    handler: (ctx, request) => ({
      deleted: ctx.sandbox.world.module(findingsModule)?.findings?.clear(request.query?.account_id) ?? 0,
    }),
  }),
];
