/**
 * The OpenAPI 3.1 document, built from the operation declarations: the same schemas that validate
 * requests describe them here, so behaviour and description cannot drift. Nothing in this module
 * names an operation; a new declaration in OPERATIONS appears in the document by itself.
 */
import { componentRef } from '../operations/schemas.js';
import { isWrite, type JsonSchema, type OperationDef } from '../operations/types.js';
import { BEARER_SECURITY_SCHEME, HEADER_COMPONENTS, IDEMPOTENCY_KEY_PARAMETER, type HeaderName } from './components.js';
import { NOTHING_DEPRECATED, type DeprecationPredicate } from './deprecation.js';
import { exampleFromSchema } from './example.js';
import { tagObject } from './tags.js';
import { errorResponse, errorStatuses, successResponse } from './responses.js';
import { WEBHOOK_EVENTS } from '../resources/index.js';
import { eventSchema } from '../webhooks/event-schema.js';
import { ATTEMPT_TIMEOUT_MS, deadlineText } from '../webhooks/retry-schedule.js';

/** Spec §9.1: the API description carries version 1.0.0. */
export const API_VERSION = '1.0.0';
export const OPENAPI_VERSION = '3.1.0';
export const SECURITY_SCHEME_NAME = 'bearerAuth';

export interface DocumentOptions {
  /** Which operations are deprecated right now (see `deprecation.ts`); none by default. */
  isDeprecated?: DeprecationPredicate;
  /** `servers[0].url`; the API lives under `/v1` of whatever origin serves the document. */
  serverUrl?: string;
  /** Real ms a webhook attempt may take (the `webhookTimeout` option), said in each webhook's text; 10 s by default. */
  webhookTimeoutMs?: number;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};
export type OpenApiOperation = Record<string, unknown> & { operationId: string; responses: Record<string, unknown> };

/**
 * Moves every schema node with a PascalCase `title` into `components.schemas` and leaves a `$ref`,
 * so generated clients get named types. Two different schemas under one title are a declaration bug.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly serialized = new Map<string, string>();

  hoist(schema: JsonSchema): JsonSchema {
    const copy = this.walk(structuredClone(schema));
    return copy;
  }

  private walk(node: JsonSchema): JsonSchema {
    for (const key of ['properties', 'patternProperties', '$defs'] as const) {
      const map = node[key] as Record<string, JsonSchema> | undefined;
      if (map) for (const [name, child] of Object.entries(map)) map[name] = this.walk(child);
    }
    for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const) {
      const child = node[key];
      if (child && typeof child === 'object' && !Array.isArray(child)) node[key] = this.walk(child as JsonSchema);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
      const list = node[key] as JsonSchema[] | undefined;
      if (Array.isArray(list)) node[key] = list.map((child) => this.walk(child));
    }
    const title = node.title;
    if (typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return node;
    const text = JSON.stringify(node);
    const known = this.serialized.get(title);
    if (known !== undefined && known !== text) throw new Error(`Two different schemas are titled ${title}; give one another title`);
    this.serialized.set(title, text);
    this.schemas[title] = node;
    return { $ref: componentRef(title) };
  }
}

function parameters(op: OperationDef, registry: SchemaRegistry): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const add = (location: 'path' | 'query', schema: JsonSchema | undefined) => {
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: registry.hoist(rest),
        example: exampleFromSchema(property, name),
      });
    }
  };
  add('path', op.params);
  add('query', op.query);
  if (isWrite(op)) out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return out;
}

function describe(op: OperationDef, deprecated: boolean): string {
  const parts = [op.description ?? op.summary, `Spec §${op.specSection}.`];
  if (deprecated) parts.push('Deprecated: responses carry `Deprecation`, `Sunset` and `Link` headers (spec §9.3).');
  return parts.join('\n\n');
}

function operationObject(op: OperationDef, deprecated: boolean, registry: SchemaRegistry): OpenApiOperation {
  const hoistContent = (response: Record<string, unknown>) => {
    const media = (response.content as Record<string, { schema: JsonSchema }>)['application/json']!;
    media.schema = registry.hoist(media.schema);
    return response;
  };
  const responses: Record<string, unknown> = { [String(op.success.status)]: hoistContent(successResponse(op, deprecated)) };
  for (const status of errorStatuses(op)) responses[String(status)] = hoistContent(errorResponse(op, status, deprecated));
  const operation: OpenApiOperation = {
    operationId: op.operationId,
    summary: op.summary,
    description: describe(op, deprecated),
    tags: [op.tag],
    parameters: parameters(op, registry),
    responses,
    'x-spec-section': op.specSection,
  };
  if (op.body) {
    operation.requestBody = {
      required: bodyMustBeSent(op),
      content: { 'application/json': { schema: registry.hoist(op.body), example: exampleFromSchema(op.body) } },
    };
  }
  if (deprecated) operation.deprecated = true;
  return operation;
}

/**
 * The header components some response refers to. The deprecation headers are referred to only while
 * an operation is deprecated; listing them otherwise would describe headers no response has.
 */
function referencedHeaders(paths: OpenApiDocument['paths']): Record<string, unknown> {
  const text = JSON.stringify(paths);
  const headers: Record<string, unknown> = {};
  for (const name of Object.keys(HEADER_COMPONENTS) as HeaderName[]) {
    if (text.includes(`"#/components/headers/${name}"`)) headers[name] = structuredClone(HEADER_COMPONENTS[name]);
  }
  return headers;
}

const WEBHOOK_TAG = 'Webhooks';

/** The Standard Webhooks headers of every delivery (contract §4.3). */
const WEBHOOK_HEADERS = [
  { name: 'webhook-id', description: 'The event id (`evt_…`): the same on every attempt; de-duplicate on it.', pattern: '^evt_' },
  {
    name: 'webhook-timestamp',
    description: "Unix seconds of the attempt in real time (not the account's virtual clock), as verifiers expect.",
    pattern: '^[0-9]+$',
  },
  { name: 'webhook-signature', description: '`v1,<base64 HMAC-SHA256>` with the endpoint secret (Standard Webhooks).', pattern: '^v1,' },
];

/**
 * OpenAPI 3.1 `webhooks`: one entry per event type, its payload the Event schema built around the
 * very response schema the API answers with (each resource's webhook-events.ts), hoisted into the same
 * components, so a generated client types the receiver's input like the API's answers.
 */
function webhookObjects(registry: SchemaRegistry, timeoutMs: number): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const info of WEBHOOK_EVENTS) {
    const schema = eventSchema(info);
    webhooks[info.type] = {
      post: {
        operationId: `${info.type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Webhook`,
        summary: info.type,
        description: `${info.description}\n\nAny 2xx answer within ${deadlineText(timeoutMs)} acknowledges it; anything else is retried (contract §4.3).`,
        tags: [WEBHOOK_TAG],
        security: [],
        parameters: WEBHOOK_HEADERS.map(({ name, description, pattern }) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string', pattern },
        })),
        requestBody: { required: true, content: { 'application/json': { schema: registry.hoist(schema) } } },
        responses: { '200': { description: 'Acknowledged: any 2xx status will do.' } },
      },
    };
  }
  return webhooks;
}

/**
 * Whether a client must send the body: when the operation says so, and when its schema has required
 * members (an absent body validates as `{}`, which then fails them), so a generated client does not
 * offer `crawlSite()` without its `url`.
 */
export function bodyMustBeSent(op: OperationDef): boolean {
  const required = (op.body as { required?: readonly string[] } | undefined)?.required;
  return op.bodyRequired === true || (required !== undefined && required.length > 0);
}

export function buildOpenApiDocument(operations: readonly OperationDef[], options: DocumentOptions = {}): OpenApiDocument {
  const isDeprecated = options.isDeprecated ?? NOTHING_DEPRECATED;
  const registry = new SchemaRegistry();
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const op of operations) {
    const deprecated = isDeprecated(op.operationId);
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, deprecated, registry);
    if (!tags.includes(op.tag)) tags.push(op.tag);
  }
  const webhooks = webhookObjects(registry, options.webhookTimeoutMs ?? ATTEMPT_TIMEOUT_MS);
  tags.push(WEBHOOK_TAG);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Creator Commerce Platform API',
      version: API_VERSION,
      // The license of the sandbox that generates and serves this description (package.json).
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Served by creator-commerce-mock, a stateful sandbox of the Creator Commerce Platform API. Generated from the same operation declarations that route and validate requests. Rate limits (spec §8): one fixed 60-second window per API key, free 600 and paid 3,000 requests.',
    },
    servers: [{ url: options.serverUrl ?? '/v1', description: 'The API, relative to the origin that serves this document.' }],
    security: [{ [SECURITY_SCHEME_NAME]: [] }],
    tags: tags.map(tagObject),
    paths,
    webhooks,
    components: {
      schemas: registry.schemas,
      headers: referencedHeaders(paths),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      securitySchemes: { [SECURITY_SCHEME_NAME]: BEARER_SECURITY_SCHEME },
    },
  };
}
