/**
 * Contract §4.3: webhook endpoints, the delivery log and triggered events under /__admin. Bodies and
 * queries are validated like every admin route (400 unknown or missing fields, 422 bad values, 404
 * unknown account or id), so a mistyped filter answers the envelope instead of an empty list.
 */
import { ApiError, resourceMissing, validationFailed } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { EVENT_TYPES } from '../operations/event-types.js';
import type { JsonSchema } from '../operations/types.js';
import type { DeliveryFilter } from '../webhooks/hub.js';
import { endpointInputProblem, MAX_ENDPOINT_URL_LENGTH } from '../webhooks/endpoint-input.js';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '../webhooks/endpoints.js';
import { SECRET_PATTERN } from '../webhooks/signing.js';
import { yieldTurn } from '../http/large-body-lane.js';
import { accountOr404 } from './account-state.js';
import { deletedSchema, listSchema, webhookDeliverySchema, webhookEndpointSchema, webhookEventSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

/** `limit` of the delivery log: as the journal's. */
export const DELIVERY_PAGE = { default: 100, max: 1000 } as const;

const accountId: JsonSchema = { type: 'string', minLength: 1 };

const createEndpointSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'url'],
  properties: {
    account_id: accountId,
    url: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_URL_LENGTH },
    events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['*', ...EVENT_TYPES] } },
    secret: { type: 'string', pattern: SECRET_PATTERN, maxLength: 200 },
  },
};

/** `limit` of the endpoint listing: as the journal's (an account has at most MAX_ENDPOINTS_PER_ACCOUNT, the default). */
export const ENDPOINT_PAGE = { default: MAX_ENDPOINTS_PER_ACCOUNT, max: 1000 } as const;

const listEndpointsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: accountId,
    starting_after: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: ENDPOINT_PAGE.max, default: ENDPOINT_PAGE.default },
  },
};

const listDeliveriesSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: accountId,
    endpoint_id: { type: 'string', minLength: 1 },
    event_type: { enum: [...EVENT_TYPES] },
    status: { enum: ['pending', 'succeeded', 'failed'] },
    limit: { type: 'integer', minimum: 1, maximum: DELIVERY_PAGE.max, default: DELIVERY_PAGE.default },
  },
};

const triggerSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'type'],
  properties: { account_id: accountId, type: { enum: [...EVENT_TYPES] } },
};

export { WEBHOOK_URL_MESSAGE } from '../webhooks/endpoint-input.js';

/**
 * An absolute http(s) URL without credentials, and events listed once (src/webhooks/endpoint-input.ts,
 * the check a loaded snapshot's endpoints get too). Any host is accepted, loopback and private
 * addresses included: the sandbox calls whatever URL a test gives it (README "Testing your webhook
 * receiver"), which is the point.
 */
function checkEndpointInput(url: string, events: unknown): void {
  const problem = endpointInputProblem(url, events);
  if (problem) throw validationFailed({ [problem.member]: [problem.message] });
}

/**
 * `accountOr404` is the admin API's one lookup (account-state.ts): it also brings the account's jobs
 * up to its clock, so a triggered `job.completed` finds a job that has ended but was never read.
 */
export const WEBHOOK_OPERATIONS = [
  adminOperation({
    route: 'POST /webhook_endpoints',
    summary: 'Register a webhook endpoint of an account',
    description:
      'Any host is accepted, loopback and private addresses included. A `url` that is not absolute `http(s)` (or holds credentials) is 422, an unknown account 404. An account keeps at most 100 endpoints and 128 KiB of them (their JSON): one more is 422 naming `account_id` (docs/webhooks.md).',
    client: ['admin.webhooks.createEndpoint()'],
    body: createEndpointSchema,
    answer: { status: 201, description: 'The endpoint, with its `secret`.', schema: webhookEndpointSchema },
    errors: [404, 422],
    handler: (ctx, request) => {
      const body = request.body();
      checkEndpointInput(body.url, body.events ?? ['*']);
      const account = accountOr404(ctx, body.account_id, 'account_id');
      return ctx.sandbox.world.webhooks.createEndpoint({
        accountId: account.id,
        url: body.url,
        events: body.events ?? ['*'],
        secret: body.secret,
      });
    },
  }),
  adminOperation({
    route: 'GET /webhook_endpoints',
    summary: 'List webhook endpoints',
    description: `Oldest first, \`limit\` at a time (default ${ENDPOINT_PAGE.default}, the most an account may have; at most ${ENDPOINT_PAGE.max}), after the endpoint \`starting_after\`, within 8 MiB (\`has_more\` when more are left). An unknown account is 404; a \`starting_after\` not in the list (deleted since, or another account's) is 400.`,
    client: ['admin.webhooks.listEndpoints({ account_id, limit, starting_after })'],
    query: listEndpointsSchema,
    answer: {
      status: 200,
      description: 'A page of endpoints (of the account).',
      schema: listSchema(webhookEndpointSchema, 'WebhookEndpointList'),
    },
    errors: [404],
    handler: (ctx, request) => {
      const { account_id, starting_after } = request.query;
      // The kit filled in the default `limit`.
      const limit = request.query.limit ?? ENDPOINT_PAGE.default;
      if (account_id !== undefined) accountOr404(ctx, account_id, 'account_id');
      const page = ctx.sandbox.world.webhooks.endpointPage(account_id, limit, starting_after);
      if (!page) throw new ApiError('bad_request', { param: 'starting_after', message: MESSAGES.unknownCursor(starting_after!) });
      return { object: 'list', data: page.data, has_more: page.hasMore };
    },
  }),
  adminOperation({
    route: 'GET /webhook_endpoints/{id}',
    summary: 'A webhook endpoint',
    client: ['admin.webhooks.getEndpoint(id)'],
    answer: { status: 200, description: 'The endpoint.', schema: webhookEndpointSchema },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      const endpoint = ctx.sandbox.world.webhooks.endpoint(id);
      if (!endpoint) throw resourceMissing('webhook endpoint', id, 'id');
      return endpoint;
    },
  }),
  adminOperation({
    route: 'DELETE /webhook_endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries end `failed`.',
    client: ['admin.webhooks.deleteEndpoint(id)'],
    answer: {
      status: 200,
      description: '`{"id", "object": "webhook_endpoint", "deleted": true}`',
      schema: deletedSchema('DeletedWebhookEndpoint', 'webhook_endpoint'),
    },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      if (!ctx.sandbox.world.webhooks.deleteEndpoint(id)) throw resourceMissing('webhook endpoint', id, 'id');
      return { id, object: 'webhook_endpoint', deleted: true };
    },
  }),
  adminOperation({
    route: 'GET /webhook_deliveries',
    summary: 'The delivery log, newest first',
    description:
      'Within 8 MiB (`has_more` when more matched); events over 16 KiB truncated with their length (docs/webhooks.md). A bad value is 400, an unknown account 404.',
    client: ['admin.webhooks.deliveries({ … })'],
    query: listDeliveriesSchema,
    answer: { status: 200, description: 'A page of deliveries.', schema: listSchema(webhookDeliverySchema, 'WebhookDeliveryList') },
    errors: [404],
    handler: (ctx, request) => {
      // The kit filled in the default `limit`.
      const query = request.query as DeliveryFilter;
      if (query.account_id !== undefined) accountOr404(ctx, query.account_id, 'account_id');
      const page = ctx.sandbox.world.webhooks.deliveries(query);
      return { object: 'list', data: page.data, has_more: page.hasMore };
    },
  }),
  adminOperation({
    route: 'GET /webhook_deliveries/{id}',
    summary: 'A delivery and its attempts',
    client: ['admin.webhooks.delivery(id)'],
    answer: { status: 200, description: 'The delivery.', schema: webhookDeliverySchema },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      const delivery = ctx.sandbox.world.webhooks.delivery(id);
      if (!delivery) throw resourceMissing('webhook delivery', id, 'id');
      return delivery;
    },
  }),
  adminOperation({
    route: 'POST /events',
    summary: 'Trigger an event of an account',
    description:
      'Like `stripe trigger`: an event of `type` about a record of the account, sent to its endpoints right after. An unknown type is 422 listing the types.',
    client: ['admin.webhooks.trigger({ account_id, type })'],
    body: triggerSchema,
    answer: { status: 201, description: 'The event.', schema: webhookEventSchema },
    errors: [404, 422],
    handler: async (ctx, request) => {
      const body = request.body();
      const world = ctx.sandbox.world;
      const account = accountOr404(ctx, body.account_id, 'account_id');
      // The sample is made from the account's records: derived first, in slices, as for a state read.
      await account.prepare(yieldTurn);
      // Reset, deleted or the sandbox reset meanwhile: no event for an account that is gone (it
      // would draw ids from the streams of the account's next life, in the world of that moment).
      if (ctx.sandbox.world !== world || world.store.forAccount(account.id) !== account) {
        throw new ApiError('resource_missing', { param: 'account_id', message: MESSAGES.noSuchAccount(account.id) });
      }
      return world.webhooks.trigger(account, body.type);
    },
  }),
];
