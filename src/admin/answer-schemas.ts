/**
 * The schemas of the admin API's answers, for its OpenAPI document (contract §5.4). A PascalCase
 * `title` names a schema in the document's components. test/admin/openapi.test.ts checks real
 * answers against them, so they describe what the routes send.
 */
import { RULE_NAMES, RULE_SETTINGS, SEVERITIES } from '../findings/findings.js';
import { EVENT_TYPES } from '../operations/event-types.js';
import { nullableTimestampSchema, timestampSchema } from '../operations/schemas.js';
import type { JsonSchema } from '../operations/types.js';
import { apiKeySchema } from '../resources/api-keys/schemas.js';

const string: JsonSchema = { type: 'string' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const clockMode: JsonSchema = { enum: ['running', 'frozen'] };

/** A closed object: every member listed is required unless named in `optional`. */
function object(title: string | undefined, properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    ...(title ? { title } : {}),
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}

/** A free-form object: any members (a generated client types it as a map of unknown values). */
const anyObject: JsonSchema = { type: 'object', additionalProperties: true };

/** An admin listing: no `url`, unlike the /v1 lists. */
export function listSchema(item: JsonSchema, title: string): JsonSchema {
  return object(title, { object: { const: 'list' }, data: { type: 'array', items: item }, has_more: { type: 'boolean' } });
}

export const statusOkSchema = object('StatusOk', { status: { const: 'ok' } });

export const clockStateSchema = object('ClockState', { now: timestampSchema, mode: clockMode });

export const accountClockSchema = object('AccountClock', {
  now: timestampSchema,
  mode: clockMode,
  shared: { type: 'boolean', description: 'Whether the account follows the sandbox clock (`false`: it has its own).' },
});

/** A clock answer of `…/clock/advance`: an until-idle advance adds `advanced_seconds` (contract §5.4). */
export function advancedClockSchema(clock: JsonSchema): JsonSchema {
  const properties = clock.properties as Record<string, JsonSchema>;
  return object(
    `Advanced${String(clock.title)}`,
    { ...properties, advanced_seconds: { type: 'number', minimum: 0, description: 'With `until: "idle"`: how far the clock moved.' } },
    ['advanced_seconds'],
  );
}

export const adminAccountSchema = object('AdminAccount', {
  id: { type: 'string', pattern: '^acct_' },
  object: { const: 'account' },
  name: string,
  plan: { enum: ['free', 'paid'] },
  created_at: timestampSchema,
  credits: object(undefined, { balance: { type: 'number' }, used: { type: 'number' } }),
  clock: accountClockSchema,
});

export const accountAnswerSchema = object('AccountAnswer', { account: adminAccountSchema });

const apiKeyProperties = apiKeySchema.properties as Record<string, JsonSchema>;

/** The /v1 ApiKey plus what only the admin API shows: its access, and when it was revoked. */
export const adminApiKeySchema = object(
  'AdminApiKey',
  { ...apiKeyProperties, access: { enum: ['full', 'read_only'] }, revoked_at: nullableTimestampSchema },
  ['access', 'revoked_at'],
);

export const createdAccountSchema = object('CreatedAccount', { account: adminAccountSchema, api_key: adminApiKeySchema });

export const accountStateSchema = object('AccountState', {
  account: adminAccountSchema,
  state: {
    type: 'object',
    description:
      'Every collection of the account by plural snake_case name, each an array of records with `id`, oldest first (jobs summarized), plus `credits`. ' +
      'A collection larger than the answer shows holds its oldest records only: `collections` says how many there are and where to list them all.',
    required: ['credits'],
    properties: { credits: object(undefined, { balance: { type: 'number' }, used: { type: 'number' } }) },
    additionalProperties: { type: 'array', items: anyObject },
  },
  collections: {
    type: 'object',
    description:
      'Per collection: `count` records held, the `shown` oldest of them in `state` (all of them unless the collection is over 100 records or the answer over 4 MiB of records), and `url`, the listing that pages through every one.',
    additionalProperties: object('CollectionSummary', { count: integer, shown: integer, url: string }),
  },
  record_bytes: { ...integer, description: 'What the account\'s records weigh, in bytes of JSON (docs/api.md "Record budget").' },
  record_budget: { ...integer, description: 'What they may weigh: `--record-budget`.' },
});

export function deletedSchema(title: string, object: string): JsonSchema {
  return {
    title,
    type: 'object',
    additionalProperties: false,
    required: ['id', 'object', 'deleted'],
    properties: { id: string, object: { const: object }, deleted: { const: true } },
  };
}

export const deletedCountSchema = object('DeletedCount', { deleted: integer });

const activeScenarioProperties: Record<string, JsonSchema> = {
  id: string,
  name: string,
  account_id: nullableString,
  api_key_id: nullableString,
  operation_id: nullableString,
  times: { type: ['integer', 'null'] },
  remaining: { type: ['integer', 'null'], description: 'Matching requests (or jobs) left before it ends; null: until deactivated.' },
  probability: { type: 'number', minimum: 0, maximum: 1 },
  params: anyObject,
  activated_at: timestampSchema,
};

export const activeScenarioSchema = object('ActiveScenario', activeScenarioProperties);

export const deactivatedScenarioSchema = object('DeactivatedScenario', { ...activeScenarioProperties, deleted: { const: true } });

export const scenarioListsSchema = object('ScenarioLists', {
  available: {
    type: 'array',
    items: object('AvailableScenario', {
      name: string,
      description: string,
      params: { type: 'object', description: 'Declared params: name -> JSON Schema with its `default`.', additionalProperties: anyObject },
    }),
  },
  active: { type: 'array', items: activeScenarioSchema },
});

const truncatedBody = object('TruncatedBody', {
  bytes: integer,
  head: { type: 'string', description: 'The first bytes of the body, as text.' },
});

/** Headers by lower-case name, credentials redacted (contract §5.3). */
const headersSchema: JsonSchema = { type: 'object', additionalProperties: string };

export const journalEntrySchema = object(
  'JournalEntry',
  {
    request_id: string,
    method: string,
    path: { type: 'string', description: 'Including `/v1`, without the query.' },
    query: { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: string }] } },
    status: { type: ['integer', 'null'] },
    account_id: nullableString,
    api_key_id: nullableString,
    operation_id: nullableString,
    idempotent_replayed: { type: 'boolean' },
    scenario_ids: { type: 'array', items: string },
    fault: nullableString,
    finding_ids: { type: 'array', items: string, description: 'The findings this request raised (contract §5.1).' },
    timestamp: timestampSchema,
    headers: headersSchema,
    body: { description: 'The JSON body as sent; null when none was sent, it was not JSON, or it was truncated.' },
    body_truncated: truncatedBody,
    response: {
      oneOf: [
        object('JournalResponse', { status: { type: 'integer' }, headers: headersSchema, body: {}, body_truncated: truncatedBody }, [
          'body_truncated',
        ]),
        { type: 'null' },
      ],
    },
  },
  ['body_truncated'],
);

export const findingSchema = object('Finding', {
  id: { type: 'string', pattern: '^fnd_' },
  object: { const: 'finding' },
  rule: { enum: [...RULE_NAMES] },
  severity: { enum: [...SEVERITIES] },
  section: { type: 'string', description: 'The spec or contract section the rule comes from.' },
  message: string,
  account_id: nullableString,
  api_key_id: nullableString,
  operation_id: nullableString,
  request_ids: { type: 'array', items: string, description: 'The journal request ids that show it, in order of arrival.' },
  delivery_ids: { type: 'array', items: string },
  created_at: timestampSchema,
});

/** `GET|POST /__admin/accounts/{id}/findings/rules`: every rule and whether it judges the account. */
export const findingRulesSchema = object('FindingRules', {
  object: { const: 'finding_rules' },
  account_id: string,
  rules: object('FindingRuleSettings', Object.fromEntries(RULE_NAMES.map((rule) => [rule, { enum: [...RULE_SETTINGS] }]))),
});

const eventType: JsonSchema = { enum: [...EVENT_TYPES] };

export const webhookEndpointSchema = object('WebhookEndpoint', {
  id: { type: 'string', pattern: '^we_' },
  object: { const: 'webhook_endpoint' },
  account_id: string,
  url: string,
  events: { type: 'array', items: { enum: ['*', ...EVENT_TYPES] } },
  secret: { type: 'string', description: 'The signing secret (`whsec_…`).' },
  status: { const: 'enabled' },
  created_at: timestampSchema,
});

const eventHead: Record<string, JsonSchema> = {
  id: { type: 'string', pattern: '^evt_' },
  object: { const: 'event' },
  type: eventType,
  created_at: timestampSchema,
  account_id: string,
};

export const webhookEventSchema = object('WebhookEvent', {
  ...eventHead,
  data: object(undefined, { object: { description: 'The record the event is about, as the API shows it.' } }),
});

export const webhookDeliverySchema = object('WebhookDelivery', {
  id: { type: 'string', pattern: '^whd_' },
  object: { const: 'webhook_delivery' },
  account_id: string,
  endpoint_id: string,
  // `anyOf`: the two differ in `data` only (whole, or truncated past the size a listing shows whole).
  event: {
    anyOf: [
      webhookEventSchema,
      object('TruncatedWebhookEvent', {
        ...eventHead,
        data: object('TruncatedEventData', { truncated: { const: true }, payload_bytes: integer, preview: string }),
      }),
    ],
  },
  payload_bytes: integer,
  status: { enum: ['pending', 'succeeded', 'failed'] },
  attempts: {
    type: 'array',
    items: object('DeliveryAttempt', {
      at: timestampSchema,
      status_code: { type: ['integer', 'null'] },
      error: nullableString,
      duration_ms: { type: 'number', minimum: 0 },
    }),
  },
  next_attempt_at: nullableTimestampSchema,
});

export const openApiSchema: JsonSchema = {
  title: 'OpenApiDocument',
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string' }, info: anyObject, paths: anyObject },
  additionalProperties: true,
};

const counts: JsonSchema = { type: 'object', additionalProperties: integer };
const statusList: JsonSchema = { type: 'array', items: { type: 'integer' } };

/** `GET /__admin/coverage` (contract §5.2). */
export const coverageSchema = object('Coverage', {
  object: { const: 'coverage' },
  account_id: nullableString,
  operations: {
    type: 'array',
    items: object('OperationCoverage', {
      operation_id: string,
      method: string,
      path: string,
      calls: integer,
      statuses: counts,
      documented_statuses: statusList,
      untested_statuses: statusList,
      scenarios: counts,
      faults: counts,
    }),
  },
  webhooks: {
    type: 'object',
    additionalProperties: object('WebhookCoverage', { deliveries: integer, succeeded: integer, failed_attempts: integer }),
  },
  summary: object('CoverageSummary', {
    operations_called: integer,
    operations_total: integer,
    statuses_seen: integer,
    statuses_documented: integer,
  }),
});

/** `GET /__admin/requests.har`: a HAR 1.2 log (its entries as the HAR spec writes them, test/journal/har.test.ts checks them against it). */
export const harSchema = object('Har', {
  log: object(
    'HarLog',
    {
      version: { const: '1.2' },
      creator: object('HarCreator', { name: string, version: string }),
      pages: { type: 'array', items: anyObject },
      entries: { type: 'array', items: anyObject },
      comment: string,
    },
    ['comment'],
  ),
});
