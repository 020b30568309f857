/**
 * Contract §5.2: `GET /__admin/coverage?account_id=` (every account together when omitted) and
 * `DELETE /__admin/coverage`. The counts are the coverage world module's (src/coverage/); the
 * operations and their documented statuses are read from the document the app serves at
 * `/openapi.json` (src/coverage/catalog.ts), so coverage and that document never disagree.
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { cachedCoverageCatalog, type OpenApiPaths } from '../coverage/catalog.js';
import type { CoverageBook, CoverageView } from '../coverage/coverage-book.js';
import { coverageModule } from '../coverage/world-module.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import type { World } from '../sandbox/world.js';
import { coverageSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

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

/** The world's book; an empty one when the module is not in the world's list (a test's own world). */
function bookOf(world: World): CoverageBook | undefined {
  return world.module(coverageModule)?.book;
}

/** The coverage of one account (null: every account together) of `world`, over the operations of `document`. */
export function coverageView(world: World, document: OpenApiPaths, accountId: string | null): CoverageView {
  const catalog = cachedCoverageCatalog(document);
  const book = bookOf(world);
  if (book) return book.view(accountId, catalog);
  return {
    object: 'coverage',
    account_id: accountId,
    operations: [],
    webhooks: {},
    summary: { operations_called: 0, operations_total: 0, statuses_seen: 0, statuses_documented: 0 },
  };
}

export const COVERAGE_OPERATIONS = [
  adminOperation({
    route: 'GET /coverage',
    summary: 'Which operations, statuses, scenarios, faults and webhooks clients exercised',
    description:
      'Per operation of `/openapi.json`: calls, statuses seen, the documented statuses not seen yet (`untested_statuses`), scenarios and faults that acted; per webhook event type: deliveries ended, succeeded, failed attempts. `account_id` narrows to one account (404 when there is none); without it, every account together. Counts survive the journal’s wrap and `journalSize: 0`; an account’s go with its reset or deletion (contract §5.2).',
    client: ['admin.coverage.get()', 'tenant.coverage()'],
    query: querySchema,
    answer: { status: 200, description: 'The coverage.', schema: coverageSchema },
    errors: [404],
    handler: (ctx, request) => {
      const accountId = request.query.account_id;
      const { world } = ctx.sandbox;
      // A deleted account has no coverage left to show; an idle one shows every count at 0.
      if (accountId !== undefined && !world.store.forAccount(accountId)) {
        throw new ApiError('resource_missing', { param: 'account_id', message: MESSAGES.noSuchAccount(accountId) });
      }
      return coverageView(world, documentOf(ctx), accountId ?? null);
    },
  }),
  adminOperation({
    route: 'DELETE /coverage',
    summary: 'Start coverage over',
    description: 'Every account’s counts go (the journal is untouched).',
    client: ['admin.coverage.clear()'],
    answer: {
      status: 200,
      description: 'Done.',
      schema: {
        title: 'CoverageCleared',
        type: 'object',
        additionalProperties: false,
        required: ['object', 'deleted'],
        properties: { object: { const: 'coverage' }, deleted: { const: true } },
      },
    },
    errors: [],
    handler: (ctx) => {
      bookOf(ctx.sandbox.world)?.clear();
      return { object: 'coverage' as const, deleted: true as const };
    },
  }),
];
