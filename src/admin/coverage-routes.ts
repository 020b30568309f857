/**
 * Contract §5.2: `GET /__admin/coverage?account_id=` (every account together when omitted) and
 * `DELETE /__admin/coverage`. The operations and their documented statuses are read from the
 * document the app serves at `/openapi.json` (src/coverage/catalog.ts).
 */
import { ApiError } from '../errors/api-error.js';
import { cachedCoverageCatalog, type OpenApiPaths } from '../coverage/catalog.js';
import { coverageOf, type CoverageView } from '../coverage/coverage-book.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import type { World } from '../sandbox/world.js';
import { queryOf, type AdminRoute } from './route-kit.js';

const querySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { account_id: { type: 'string', minLength: 1 } },
};

/** What the route reads of the app serving it: its OpenAPI document (the app's `openapi` publisher). */
interface DocumentSource {
  openapi?: { document(): OpenApiPaths };
}

function documentOf(ctx: SandboxContext): OpenApiPaths {
  const source = (ctx.app as unknown as DocumentSource).openapi;
  return source ? source.document() : {};
}

/** The coverage of one account (null: every account together) of `world`, over the operations of `document`. */
export function coverageView(world: World, document: OpenApiPaths, accountId: string | null): CoverageView {
  return coverageOf(world).view(accountId, cachedCoverageCatalog(document));
}

export function registerCoverageRoutes(route: AdminRoute): void {
  route('get', '/coverage', (ctx) => {
    const { account_id: accountId } = queryOf<{ account_id?: string }>(ctx, querySchema);
    const { world } = ctx.sandbox;
    // A deleted account has no coverage left to show; an idle one shows every count at 0.
    if (accountId !== undefined && !world.store.forAccount(accountId)) {
      throw new ApiError('resource_missing', { param: 'account_id', message: `No such account: '${accountId}'.` });
    }
    ctx.body = coverageView(world, documentOf(ctx), accountId ?? null);
  });

  route('delete', '/coverage', (ctx) => {
    coverageOf(ctx.sandbox.world).clear();
    ctx.body = { object: 'coverage', deleted: true };
  });
}
