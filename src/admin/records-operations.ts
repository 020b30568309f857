/**
 * `GET /__admin/accounts/{id}/records/{collection}`: every record of one collection of an account,
 * newest first, page by page: where `GET /__admin/accounts/{id}` sends a reader of a collection
 * larger than its head (its `collections.<name>.url`). A page is bounded in count and in bytes.
 */
import { ApiError } from '../errors/api-error.js';
import type { JsonSchema } from '../operations/types.js';
import { COLLECTION_NAMES, type CollectionName } from '../store/records.js';
import { derivedAccountOr404, shownWithin, STATE_RECORD_BYTES } from './account-state.js';
import { listSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

/** `limit` bounds: at most 100 records, as the API's own lists (spec §4). */
export const RECORDS_PAGE = { default: 100, max: 100 } as const;

const RECORDS_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    starting_after: { type: 'string', minLength: 1, description: 'The id of the last record of the previous page.' },
    limit: { type: 'integer', minimum: 1, maximum: RECORDS_PAGE.max, default: RECORDS_PAGE.default },
  },
};

const recordSchema: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['id'],
  properties: { id: { type: 'string' } },
  description: 'A record as the account state shows it (a job summarized).',
};

const isCollection = (name: string): name is CollectionName => (COLLECTION_NAMES as readonly string[]).includes(name);

export const RECORDS_OPERATIONS = [
  adminOperation({
    route: 'GET /accounts/{id}/records/{collection}',
    summary: 'Every record of one collection of an account, page by page',
    description: `Newest first, as the API's lists. A page holds at most \`limit\` records and at most ${STATE_RECORD_BYTES} bytes of them (then \`has_more\` is true). An unknown collection is 404 naming \`collection\`; an unknown \`starting_after\` is 400.`,
    client: ['admin.accounts.records(id, collection, { limit, starting_after })'],
    query: RECORDS_QUERY,
    answer: { status: 200, description: 'A page of records.', schema: listSchema(recordSchema, 'AccountRecordList') },
    errors: [400, 404],
    handler: async (ctx, request) => {
      const { id, collection: name } = request.params;
      const account = await derivedAccountOr404(ctx, id);
      if (!isCollection(name)) {
        throw new ApiError('resource_missing', { param: 'collection', message: `No such collection: '${name}'.` });
      }
      const { limit = RECORDS_PAGE.default, starting_after } = request.query;
      const records = account.collection(name);
      const page = records.page({ limit, startingAfter: starting_after });
      if (!page) {
        throw new ApiError('bad_request', {
          param: 'starting_after',
          message: `Invalid value for 'starting_after': no record '${starting_after}' in ${name}.`,
        });
      }
      // The first record always shows: a page never comes back empty while records remain.
      const shown = shownWithin(name, page.data, STATE_RECORD_BYTES, true, (recordId) => records.bytes(recordId));
      const data = shown.views as unknown as ({ id: string } & Record<string, unknown>)[];
      return { object: 'list' as const, data, has_more: shown.cut || page.hasMore };
    },
  }),
];
