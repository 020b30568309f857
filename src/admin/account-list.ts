/** `GET /__admin/accounts`: one page of account ids, in creation order (fixture accounts first). */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';

/** `limit` bounds of `GET /__admin/accounts`: as the journal's, since a run may create many tenants. */
export const ACCOUNT_PAGE = { default: 100, max: 1000 } as const;

export const ACCOUNT_LIST_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    starting_after: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: ACCOUNT_PAGE.max, default: ACCOUNT_PAGE.default },
  },
};

/** One page of account ids; a reset keeps an account's place. The query is checked (its default `limit` filled in). */
export function listAccounts(ctx: SandboxContext, query: { starting_after?: string; limit?: number }): { ids: string[]; hasMore: boolean } {
  const limit = query.limit ?? ACCOUNT_PAGE.default;
  const all = ctx.sandbox.world.store.accountIds();
  let start = 0;
  if (query.starting_after !== undefined) {
    const at = all.indexOf(query.starting_after);
    if (at < 0)
      throw new ApiError('bad_request', { param: 'starting_after', message: MESSAGES.unknownAccountCursor(query.starting_after) });
    start = at + 1;
  }
  return { ids: all.slice(start, start + limit), hasMore: start + limit < all.length };
}
