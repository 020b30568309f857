/**
 * The declaration kit of the admin API: an admin route is data (`adminOperation`), and one function
 * mounts a list of them on a router with the checks every route shares, validating like the API does
 * (400 for unknown or missing fields, 422 for bad values). The same declarations give the OpenAPI
 * document (openapi-document.ts), the reference table of docs/admin-api.md, and the client's types
 * (api-types.ts, which each declaration's handler must answer).
 *
 * A route takes a body only if it declares one (`body: schema`); every other route refuses a body
 * with members (400 `parameter_unknown`) before its handler runs. That is the default, not a check
 * each route remembers: a body-less call acts on the whole sandbox (`/__admin/reset`, a key's
 * revoke), so anything able to POST JSON to it (a webhook endpoint pointed at the sandbox itself)
 * must not make it act by accident. An empty body, `{}` or none at all still work.
 *
 * A declared body is checked when the handler first reads it (`request.body()`), not before: a route
 * that looks its account up first answers 404 for an unknown account whatever the body, as it always
 * has. A declared query is checked (defaults filled in) before the handler.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxState } from '../http/context.js';
import { ANSWER_PIECE_CHARS, reply } from '../http/reply.js';
import type { JsonSchema } from '../operations/types.js';
import { compileDeclaredQuerySchema, compileDeclaredSchema, validateBody, validateQuery } from '../operations/validation.js';
import type { AdminRouteKey, RouteAnswer, RouteBody, RouteParams, RouteQuery } from './api-types.js';

export type AdminMethod = 'get' | 'post' | 'patch' | 'delete';

/** An answer already serialized (the journal measures its pages as it writes them): sent as it is. */
export class JsonText<T> {
  declare readonly answer?: T;
  constructor(readonly text: string) {}
}

/** What a handler gets besides the context: its path parameters, its checked query, its body. */
export interface AdminRequest<K extends AdminRouteKey> {
  params: RouteParams<K> extends undefined ? Record<string, never> : RouteParams<K>;
  query: RouteQuery<K> extends undefined ? Record<string, never> : RouteQuery<K>;
  /** The body, checked against the declared schema when first read (an absent body is `{}`). */
  body(): RouteBody<K>;
}

type Answer<K extends AdminRouteKey> = RouteAnswer<K> | JsonText<RouteAnswer<K>>;

/** One admin route as data. */
export interface AdminOperation<K extends AdminRouteKey = AdminRouteKey> {
  /** `METHOD /path`, relative to /__admin, parameters as `{name}` (a key of AdminRoutes). */
  route: K;
  /** One line for the OpenAPI document and the reference table. */
  summary: string;
  /** What else a reader needs: effects, limits, which errors and why. */
  description?: string;
  /** How the client calls it, as docs/admin-api.md shows (`admin.accounts.get(id)`); `—` for none. */
  client: readonly string[];
  query?: JsonSchema;
  body?: JsonSchema;
  /**
   * The body as the document describes it, when the handler checks a member further itself than
   * `body` does (a snapshot: src/snapshot/decode.ts answers 422 naming the member, where the kit
   * would answer 400 for an unknown one); `body` still checks the request. Same top members.
   */
  documentedBody?: JsonSchema;
  /** The success status and the schema of its body. */
  answer: { status: 200 | 201; description: string; schema: JsonSchema };
  /** The error statuses the route itself answers (the shared ones are added: openapi-document.ts). */
  errors: readonly number[];
  // A method, so that a list of operations of different routes is one array type.
  handler(ctx: SandboxContext, request: AdminRequest<K>): Answer<K> | Promise<Answer<K>>;
}

/** Declares one route: `adminOperation({ route: 'GET /health', …, handler })`. */
export function adminOperation<K extends AdminRouteKey>(operation: AdminOperation<K>): AdminOperation<K> {
  return operation;
}

export function methodOf(operation: Pick<AdminOperation, 'route'>): AdminMethod {
  return operation.route.slice(0, operation.route.indexOf(' ')).toLowerCase() as AdminMethod;
}

/** The path as the document writes it: `/accounts/{id}`. */
export function pathOf(operation: Pick<AdminOperation, 'route'>): string {
  return operation.route.slice(operation.route.indexOf(' ') + 1);
}

/** The names of the path's parameters, in order. */
export function pathParamNames(operation: Pick<AdminOperation, 'route'>): string[] {
  return [...pathOf(operation).matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]!);
}

/** The path as the router matches it: `/accounts/:id`. */
export function routerPath(operation: Pick<AdminOperation, 'route'>): string {
  return pathOf(operation).replace(/\{([a-z_]+)\}/g, ':$1');
}

/** A declared route, as the router holds it (for tests and tools that walk every admin route). */
export interface AdminRouteDeclaration {
  method: AdminMethod;
  /** As the router matches it (`/accounts/:id`). */
  path: string;
  body?: JsonSchema;
  operation: AdminOperation;
}

const declarations = new WeakMap<Router<SandboxState>, AdminRouteDeclaration[]>();

/** Mounts `operations` on `router`, in order, each behind the checks every admin route shares. */
export function mountAdminOperations(router: Router<SandboxState>, operations: readonly AdminOperation[]): void {
  let declared = declarations.get(router);
  if (!declared) declarations.set(router, (declared = []));
  for (const operation of operations) {
    const method = methodOf(operation);
    const path = routerPath(operation);
    declared.push({ method, path, ...(operation.body ? { body: operation.body } : {}), operation });
    router[method](path, serve(operation) as unknown as Middleware);
  }
}

/** The routes mounted on `router`, in declaration order. */
export function adminRouteDeclarations(router: Router<SandboxState>): readonly AdminRouteDeclaration[] {
  return declarations.get(router) ?? [];
}

function serve(operation: AdminOperation): (ctx: SandboxContext) => Promise<void> {
  const { body: bodySchema, query: querySchema } = operation;
  const names = pathParamNames(operation);
  return async (ctx) => {
    if (!bodySchema) refuseBody(ctx);
    const query = querySchema ? queryOf(ctx, querySchema) : {};
    const raw = (ctx as unknown as { params: Record<string, string> }).params;
    const params = Object.fromEntries(names.map((name) => [name, raw[name] ?? '']));
    let bodyRead = false;
    const request = {
      params,
      query,
      body: () => {
        if (!bodySchema) throw new Error(`admin route ${operation.route} reads a body it does not declare`);
        bodyRead = true;
        return bodyOf(ctx, bodySchema);
      },
    } as unknown as AdminRequest<AdminRouteKey>;
    const answer = await operation.handler(ctx, request);
    // A declared body nobody read would be accepted unchecked: a declaration bug, loud in every test.
    if (bodySchema && !bodyRead) throw new Error(`admin route ${operation.route} declares a body it never reads`);
    const text = answer instanceof JsonText ? answer.text : isPlainJson(answer) ? JSON.stringify(answer) : undefined;
    // A long answer (a journal page, an account with megabyte records) leaves through the sandbox's
    // writer, in pieces of a turn each (src/http/reply.ts): Koa wrote it whole, 1-2 MiB in one turn.
    if (text !== undefined && text.length > ANSWER_PIECE_CHARS) {
      // The status on the context too: the route fallback reads it to tell an answered route from none.
      ctx.status = operation.answer.status;
      return reply(ctx, operation.answer.status, text, text);
    }
    if (text !== undefined) {
      ctx.type = 'application/json';
      ctx.body = text;
    } else {
      ctx.body = answer;
    }
    if (operation.answer.status !== 200) ctx.status = operation.answer.status;
  };
}

/** A JSON object or array, serialized here as Koa would (anything else is left to Koa). */
function isPlainJson(answer: unknown): answer is object {
  if (answer === null || typeof answer !== 'object') return false;
  const prototype = Object.getPrototypeOf(answer) as unknown;
  return Array.isArray(answer) || prototype === Object.prototype || prototype === null;
}

/** A route without a body: any member is unknown (json-body.ts made an absent or empty body `{}`). */
function refuseBody(ctx: SandboxContext): void {
  const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  const [first] = Object.keys(body);
  if (first !== undefined) throw new ApiError('parameter_unknown', { param: first, message: MESSAGES.bodylessRoute(first) });
}

type Validator = ReturnType<typeof compileDeclaredSchema>;
const bodyValidators = new WeakMap<JsonSchema, Validator>();
const queryValidators = new WeakMap<JsonSchema, Validator>();

function cached(cache: WeakMap<JsonSchema, Validator>, schema: JsonSchema, compile: typeof compileDeclaredSchema) {
  let validate = cache.get(schema);
  if (!validate) cache.set(schema, (validate = compile(schema)));
  return validate;
}

/**
 * Compiles (once) the schemas of an admin route ahead of its first request, one schema per step:
 * start-up's background work (src/warm-up.ts) runs them a few per turn. A request still compiles its
 * own if it comes first. The large members of a split body schema stay for the first body that has them.
 */
export function adminSchemaSteps(operation: Pick<AdminOperation, 'body' | 'query'>): (() => void)[] {
  const { body, query } = operation;
  return [
    ...(body ? [() => void cached(bodyValidators, body, compileDeclaredSchema)] : []),
    ...(query ? [() => void cached(queryValidators, query, compileDeclaredQuerySchema)] : []),
  ];
}

/** The JSON body, checked against `schema` (an absent body is `{}`). */
function bodyOf(ctx: SandboxContext, schema: JsonSchema): unknown {
  const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  validateBody(cached(bodyValidators, schema, compileDeclaredSchema), body, schema);
  return body;
}

/** The query string, coerced and checked against `schema` (defaults filled in). */
function queryOf(ctx: SandboxContext, schema: JsonSchema): Record<string, unknown> {
  const query: Record<string, unknown> = { ...ctx.query };
  validateQuery(cached(queryValidators, schema, compileDeclaredQuerySchema), query);
  return query;
}
