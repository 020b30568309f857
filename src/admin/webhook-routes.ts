/**
 * Contract §4.3: webhook endpoints, the delivery log and triggered events under /__admin. Bodies and
 * queries are validated like every admin route (400 unknown or missing fields, 422 bad values, 404
 * unknown account or id), so a mistyped filter answers the envelope instead of an empty list.
 */
import { resourceMissing, validationFailed } from '../errors/api-error.js';
import { EVENT_TYPES, type EventType } from '../operations/event-types.js';
import type { JsonSchema } from '../operations/types.js';
import { isAbsoluteHttpUrl } from '../operations/urls.js';
import type { AccountLookup } from './tenant-routes.js';
import type { DeliveryFilter } from '../webhooks/hub.js';
import type { EventFilter } from '../webhooks/records.js';
import { SECRET_PATTERN } from '../webhooks/signing.js';
import { bodyOf, pathParam, queryOf, type AdminRoute } from './route-kit.js';

/** `limit` of the delivery log: as the journal's. */
export const DELIVERY_PAGE = { default: 100, max: 1000 } as const;

const accountId: JsonSchema = { type: 'string', minLength: 1 };

const createEndpointSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'url'],
  properties: {
    account_id: accountId,
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['*', ...EVENT_TYPES] } },
    secret: { type: 'string', pattern: SECRET_PATTERN, maxLength: 200 },
  },
};

const listEndpointsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { account_id: accountId },
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

export const WEBHOOK_URL_MESSAGE = 'must be an absolute http or https URL';

/**
 * An absolute http(s) URL. Any host is accepted, loopback and private addresses included: the sandbox
 * calls whatever URL a test gives it (README "Testing your webhook receiver"), which is the point.
 */
function checkUrl(url: string): void {
  if (!isAbsoluteHttpUrl(url) || hasCredentials(url)) throw validationFailed({ url: [WEBHOOK_URL_MESSAGE] });
}

/** `user:password@` in a URL: refused, so a URL the log and the dashboard show holds no secret. */
function hasCredentials(url: string): boolean {
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}

/**
 * `accountOr404` is the admin API's one lookup (src/admin/routes.ts): it also brings the account's jobs
 * up to its clock, so a triggered `job.completed` finds a job that has ended but was never read.
 */
export function registerWebhookRoutes(route: AdminRoute, accountOr404: AccountLookup): void {
  route('post', '/webhook_endpoints', { body: createEndpointSchema }, (ctx) => {
    const body = bodyOf<{ account_id: string; url: string; events?: EventFilter; secret?: string }>(ctx, createEndpointSchema);
    checkUrl(body.url);
    const account = accountOr404(ctx, body.account_id, 'account_id');
    ctx.status = 201;
    ctx.body = ctx.sandbox.world.webhooks.createEndpoint({
      accountId: account.id,
      url: body.url,
      events: body.events ?? ['*'],
      secret: body.secret,
    });
  });

  route('get', '/webhook_endpoints', (ctx) => {
    const query = queryOf<{ account_id?: string }>(ctx, listEndpointsSchema);
    if (query.account_id !== undefined) accountOr404(ctx, query.account_id, 'account_id');
    ctx.body = { object: 'list', data: ctx.sandbox.world.webhooks.endpoints(query.account_id), has_more: false };
  });

  route('get', '/webhook_endpoints/:id', (ctx) => {
    const id = pathParam(ctx, 'id');
    const endpoint = ctx.sandbox.world.webhooks.endpoint(id);
    if (!endpoint) throw resourceMissing('webhook endpoint', id, 'id');
    ctx.body = endpoint;
  });

  route('delete', '/webhook_endpoints/:id', (ctx) => {
    const id = pathParam(ctx, 'id');
    if (!ctx.sandbox.world.webhooks.deleteEndpoint(id)) throw resourceMissing('webhook endpoint', id, 'id');
    ctx.body = { id, object: 'webhook_endpoint', deleted: true };
  });

  route('get', '/webhook_deliveries', (ctx) => {
    const query = queryOf<DeliveryFilter>(ctx, listDeliveriesSchema);
    if (query.account_id !== undefined) accountOr404(ctx, query.account_id, 'account_id');
    const page = ctx.sandbox.world.webhooks.deliveries(query);
    ctx.body = { object: 'list', data: page.data, has_more: page.hasMore };
  });

  route('get', '/webhook_deliveries/:id', (ctx) => {
    const id = pathParam(ctx, 'id');
    const delivery = ctx.sandbox.world.webhooks.delivery(id);
    if (!delivery) throw resourceMissing('webhook delivery', id, 'id');
    ctx.body = delivery;
  });

  route('post', '/events', { body: triggerSchema }, (ctx) => {
    const body = bodyOf<{ account_id: string; type: EventType }>(ctx, triggerSchema);
    const account = accountOr404(ctx, body.account_id, 'account_id');
    ctx.status = 201;
    ctx.body = ctx.sandbox.world.webhooks.trigger(account, body.type);
  });
}
