/** Contract §3.4, §5.3: `/__admin/requests`, the request journal, and its HAR export. */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { bodiesArrived } from '../http/journal.js';
import { yieldTurn } from '../http/large-body-lane.js';
import type { JsonSchema } from '../operations/types.js';
import {
  HAR_BYTES,
  JOURNAL_PAGE_BYTES,
  JOURNAL_PAGE_SLICE_BYTES,
  UnknownJournalCursor,
  type JournalFilter,
} from '../protocol/request-journal.js';
import type { HarDocument, HarQuery, JournalEntry, ListPage } from './api-types.js';
import { deletedCountSchema, harSchema, journalEntrySchema, listSchema } from './answer-schemas.js';
import { harLogInSlices, packageVersion } from './har-log.js';
import { adminOperation, JsonText } from './route-kit.js';

/** `limit` bounds of the journal listing: more than the API's 100, since tests read whole runs. */
export const JOURNAL_PAGE = { default: 100, max: 1000 } as const;

const id: JsonSchema = { type: 'string', minLength: 1 };
const listQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: id,
    api_key_id: id,
    operation_id: id,
    starting_after: id,
    ending_before: id,
    limit: { type: 'integer', minimum: 1, maximum: JOURNAL_PAGE.max, default: JOURNAL_PAGE.default },
  },
};

const harQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: id,
    api_key_id: id,
    operation_id: id,
    limit: { type: 'integer', minimum: 1, maximum: JOURNAL_PAGE.max, default: JOURNAL_PAGE.default },
  },
};

/** Room for the page's envelope around its entries (`{"object":"list","data":[…],"has_more":false}`). */
const PAGE_ENVELOPE_BYTES = 64;

export const JOURNAL_OPERATIONS = [
  adminOperation({
    route: 'GET /requests',
    summary: 'The request journal, newest first',
    description: `What clients sent to /v1 and what they got. A page holds at most ${JOURNAL_PAGE_BYTES / 1024 / 1024} MiB of entries whatever the \`limit\` (\`has_more\` when more matched). \`starting_after\` and \`ending_before\` together, or an unknown one, are 400.`,
    client: ['admin.requests.list()', '(alias `admin.journal`)'],
    query: listQuery,
    answer: {
      status: 200,
      description: 'A page of journal entries, newest first.',
      schema: listSchema(journalEntrySchema, 'JournalEntryList'),
    },
    errors: [],
    handler: async (ctx, request) => {
      // The kit filled in the default `limit`.
      const filter = request.query as JournalFilter;
      if (filter.starting_after !== undefined && filter.ending_before !== undefined) {
        throw new ApiError('bad_request', { param: 'ending_before', message: MESSAGES.journalCursorsBoth });
      }
      // One world for the whole listing: a reset while bodies arrive must not list another journal.
      const { journal } = ctx.sandbox.world;
      await bodiesArrived(journal);
      try {
        // Each entry was serialized once to measure the page (at most JOURNAL_PAGE_BYTES whatever the
        // `limit`, so no listing holds the event loop or the heap hostage): sent as it is.
        // Built in slices of JOURNAL_PAGE_SLICE_BYTES, a turn of the event loop each.
        const page = await journal.listPageInSlices(filter, JOURNAL_PAGE_BYTES - PAGE_ENVELOPE_BYTES, yieldTurn, JOURNAL_PAGE_SLICE_BYTES);
        return new JsonText<ListPage<JournalEntry>>(`{"object":"list","data":[${page.json.join(',')}],"has_more":${page.has_more}}`);
      } catch (error) {
        if (!(error instanceof UnknownJournalCursor)) throw error;
        const param = filter.ending_before === undefined ? 'starting_after' : 'ending_before';
        throw new ApiError('bad_request', { param, message: MESSAGES.unknownJournalCursor(error.cursor, param) });
      }
    },
  }),
  adminOperation({
    route: 'DELETE /requests',
    summary: 'Empty the journal',
    client: ['admin.requests.clear()'],
    answer: { status: 200, description: 'How many entries were removed.', schema: deletedCountSchema },
    errors: [],
    handler: (ctx) => ({ deleted: ctx.sandbox.world.journal.clear() }),
  }),
  adminOperation({
    route: 'GET /requests.har',
    summary: 'The journal as a HAR 1.2 log, oldest first',
    description: `The newest \`limit\` matching entries (at most ${HAR_BYTES / 1024 / 1024} MiB), written oldest first, as \`application/json\`: opens in a browser's developer tools or any HAR viewer. Older entries left out are said in \`log.comment\` (contract §5.3).`,
    client: ['admin.requests.har()', 'tenant.har()'],
    query: harQuery,
    answer: { status: 200, description: 'A HAR 1.2 document (application/json).', schema: harSchema },
    errors: [],
    handler: async (ctx, request) => {
      const query = request.query as HarQuery & { limit: number };
      // One world for the whole export, as the journal listing does.
      const { journal } = ctx.sandbox.world;
      await bodiesArrived(journal);
      const filter = {
        ...(query.account_id === undefined ? {} : { account_id: query.account_id }),
        ...(query.api_key_id === undefined ? {} : { api_key_id: query.api_key_id }),
        ...(query.operation_id === undefined ? {} : { operation_id: query.operation_id }),
      };
      // Serialized once, to be measured as it is built, and sent as it is.
      // Built in slices of JOURNAL_PAGE_SLICE_BYTES, a turn each; one past the limit tells that older ones were left out.
      const exchanges = journal.exchangesAcrossTurns(filter, query.limit + 1);
      return new JsonText<HarDocument>(
        (await harLogInSlices(exchanges, query.limit, packageVersion(), yieldTurn, JOURNAL_PAGE_SLICE_BYTES)).json,
      );
    },
  }),
];
