/**
 * `GET /__admin/openapi.json` (contract §5.4): the OpenAPI 3.1 document of every /__admin route,
 * built from the route declarations that route and validate requests (route-kit.ts), so the
 * description cannot drift from the behaviour. Errors use the envelope schemas of /openapi.json,
 * narrowed per status to the codes of the error catalog.
 */
import type { JsonSchema } from '../operations/types.js';
import { errorExamples, errorSchemaForStatus, codesForStatus } from '../openapi/components.js';
import { OPENAPI_VERSION, SchemaRegistry } from '../openapi/document.js';
import { openApiSchema } from './answer-schemas.js';
import { adminOperation, methodOf, pathOf, pathParamNames, type AdminOperation } from './route-kit.js';

/** A group of admin routes declared together, with what the group is for (a tag of the document). */
export interface AdminFeature {
  tag: string;
  description: string;
  operations: readonly AdminOperation[];
}

export const ADMIN_TOKEN_SCHEME = 'adminToken';

/** The version of the admin API's interface (contract §3–§5), not of the package. */
export const ADMIN_API_VERSION = '1.0.0';

/**
 * Statuses the shared parts of /__admin can answer for any route, whatever the route does itself:
 * the guards (src/admin/guard.ts), the body reader (src/http/json-body.ts) and the kit's checks.
 */
export function sharedStatuses(operation: AdminOperation): Map<number, string> {
  const statuses = new Map<number, string>();
  const reasons = ['a body that is not a JSON object, or over 1 MiB'];
  reasons.push(operation.body ? 'a body member that is missing or unknown' : 'a body with members (this route takes none)');
  if (operation.query) reasons.push('an unknown or invalid query parameter');
  statuses.set(400, reasons.join('; '));
  statuses.set(401, 'a missing or wrong `X-Admin-Token` when the sandbox has an admin token');
  statuses.set(403, "an `Origin` other than the sandbox's own, or a `Host` it does not answer to (contract §3)");
  if (pathParamNames(operation).length > 0 && !operation.errors.includes(404)) statuses.set(404, 'an id that does not exist');
  statuses.set(415, 'a body in a Content-Encoding it cannot decode');
  if (operation.body) statuses.set(422, 'a well-formed body with invalid values');
  statuses.set(500, 'an unexpected failure');
  return statuses;
}

function errorStatuses(operation: AdminOperation): number[] {
  return [...new Set([...operation.errors, ...sharedStatuses(operation).keys()])].sort((a, b) => a - b);
}

/** `GET /accounts/{id}/clock` -> `getAccountsIdClock`: unique, since routes are. */
export function operationId(operation: AdminOperation): string {
  const words = [
    methodOf(operation),
    ...pathOf(operation)
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean),
  ];
  return words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
}

const JSON_MEDIA = 'application/json';

function parameters(operation: AdminOperation, registry: SchemaRegistry): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = pathParamNames(operation).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
  const properties = (operation.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((operation.query?.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    out.push({ name, in: 'query', required: required.has(name), schema: registry.hoist(property) });
  }
  return out;
}

function errorResponse(operation: AdminOperation, status: number, registry: SchemaRegistry): Record<string, unknown> {
  const codes = codesForStatus(status).map(([code]) => `\`${code}\``);
  const reason = sharedStatuses(operation).get(status);
  let description = codes.length > 0 ? `Error ${codes.join(', ')}.` : 'Error.';
  if (reason && !operation.errors.includes(status)) description += ` For ${reason}.`;
  const examples = errorExamples(status);
  return {
    description,
    content: {
      [JSON_MEDIA]: { schema: registry.hoist(errorSchemaForStatus(status)), ...(Object.keys(examples).length > 0 ? { examples } : {}) },
    },
  };
}

function operationObject(operation: AdminOperation, tag: string, registry: SchemaRegistry): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(operation.answer.status)]: {
      description: operation.answer.description,
      content: { [JSON_MEDIA]: { schema: registry.hoist(operation.answer.schema) } },
    },
  };
  for (const status of errorStatuses(operation)) responses[String(status)] = errorResponse(operation, status, registry);
  const object: Record<string, unknown> = {
    operationId: operationId(operation),
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [tag],
    parameters: parameters(operation, registry),
    responses,
  };
  if (operation.body) {
    const required = (operation.body.required ?? []) as string[];
    const schema = registry.hoist(operation.documentedBody ?? operation.body);
    object.requestBody = { required: required.length > 0, content: { [JSON_MEDIA]: { schema } } };
  }
  return object;
}

export function buildAdminOpenApiDocument(features: readonly AdminFeature[]): Record<string, unknown> {
  const registry = new SchemaRegistry();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const feature of features) {
    for (const operation of feature.operations) {
      (paths[pathOf(operation)] ??= {})[methodOf(operation)] = operationObject(operation, feature.tag, registry);
    }
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'creator-commerce-mock admin API',
      version: ADMIN_API_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The control surface of the sandbox (contract §3–§5): accounts, keys, the clock, the request journal, scenarios and webhooks. Never rate-limited, never counted, never needs an API key; with an admin token configured every call sends it as `X-Admin-Token`. Generated from the same declarations that route and validate the admin requests.',
    },
    servers: [{ url: '/__admin', description: 'The admin API, relative to the origin that serves this document.' }],
    // `{}`: no token needed unless the sandbox was started with one.
    security: [{}, { [ADMIN_TOKEN_SCHEME]: [] }],
    tags: features.map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: {
      schemas: registry.schemas,
      securitySchemes: {
        [ADMIN_TOKEN_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Admin-Token',
          description: 'Needed on every call when the sandbox has an admin token (`--admin-token`, `MOCK_ADMIN_TOKEN`).',
        },
      },
    },
  };
}

/** The route serving the document of `features()` (read at the first call, then kept: the routes do not change). */
export function openApiOperation(features: () => readonly AdminFeature[]) {
  let document: ReturnType<typeof buildAdminOpenApiDocument> | undefined;
  return adminOperation({
    route: 'GET /openapi.json',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of every /__admin route (contract §5.4).',
    client: ['admin.openApi()'],
    answer: { status: 200, description: 'An OpenAPI 3.1 document.', schema: openApiSchema },
    errors: [],
    handler: () => (document ??= buildAdminOpenApiDocument(features())) as { openapi: string; paths: Record<string, unknown> },
  });
}
