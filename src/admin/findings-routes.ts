/** Contract §5.1: `/__admin/findings`, where clients broke the service's rules (docs/findings.md). */
import { ApiError } from '../errors/api-error.js';
import { RULE_NAMES, SEVERITIES, UnknownFindingCursor, type FindingFilter } from '../findings/findings.js';
import { bodiesArrived } from '../http/journal.js';
import type { JsonSchema } from '../operations/types.js';
import { queryOf, type AdminRoute } from './route-kit.js';

/** `limit` of the listing (contract §5.1). */
export const FINDINGS_PAGE = { default: 15, max: 100 } as const;

const id: JsonSchema = { type: 'string', minLength: 1 };
const listSchema: JsonSchema = {
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
const clearSchema: JsonSchema = { type: 'object', additionalProperties: false, properties: { account_id: id } };

export function registerFindingRoutes(route: AdminRoute): void {
  route('get', '/findings', async (ctx) => {
    const filter = queryOf<FindingFilter>(ctx, listSchema);
    const world = ctx.sandbox.world;
    // A request answered before its body was read is judged once the body has arrived (src/http/journal.ts).
    await bodiesArrived(world.journal);
    try {
      const page = world.findings?.list(filter) ?? { data: [], has_more: false };
      ctx.body = { object: 'list', data: page.data, has_more: page.has_more };
    } catch (error) {
      if (!(error instanceof UnknownFindingCursor)) throw error;
      throw new ApiError('bad_request', {
        param: 'starting_after',
        message: `No finding '${error.cursor}' is kept (cleared, reset, or over the bound).`,
      });
    }
  });

  route('delete', '/findings', (ctx) => {
    const { account_id } = queryOf<{ account_id?: string }>(ctx, clearSchema);
    ctx.body = { deleted: ctx.sandbox.world.findings?.clear(account_id) ?? 0 };
  });
}
