/**
 * What every admin route file shares: a typed way to declare routes, and the body, query and path
 * readers that validate like the API does (400 for unknown or missing fields, 422 for bad values).
 *
 * A route takes a body only if it declares one (`{ body: schema }`); every other route refuses a
 * body with members (400 `parameter_unknown`) before its handler runs. That is the default, not a
 * check each route remembers: a body-less call acts on the whole sandbox (`/__admin/reset`, a key's
 * revoke), so anything able to POST JSON to it (a webhook endpoint pointed at the sandbox itself)
 * must not make it act by accident. An empty body, `{}` or none at all still work.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxState } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import { compileQuerySchema, compileSchema, validateBody, validateQuery } from '../operations/validation.js';

export type AdminHandler = (ctx: SandboxContext) => void | Promise<void>;
export type AdminMethod = 'get' | 'post' | 'patch' | 'delete';

/** What a route declares beside its handler. */
export interface AdminRouteOptions {
  /** The body it reads with `bodyOf` (that very schema). Without it, the route takes no body. */
  body?: JsonSchema;
}

/** A declared route, as the router holds it (for tests and tools that walk every admin route). */
export interface AdminRouteDeclaration extends AdminRouteOptions {
  method: AdminMethod;
  path: string;
}

/** `route(method, path, handler)` for a route without a body; `route(method, path, { body }, handler)` for one with. */
export interface AdminRoute {
  (method: AdminMethod, path: string, handler: AdminHandler): void;
  (method: AdminMethod, path: string, options: AdminRouteOptions, handler: AdminHandler): void;
}

const declarations = new WeakMap<Router<SandboxState>, AdminRouteDeclaration[]>();
/** The body schema the route serving a request declared: `bodyOf` reads only that one. */
const declaredBody = new WeakMap<SandboxContext, JsonSchema>();

export function adminRoute(router: Router<SandboxState>): AdminRoute {
  let declared = declarations.get(router);
  if (!declared) declarations.set(router, (declared = []));
  const list = declared;
  return (method: AdminMethod, path: string, first: AdminHandler | AdminRouteOptions, second?: AdminHandler) => {
    const [options, handler] = typeof first === 'function' ? [{}, first] : [first, second!];
    const { body } = options;
    list.push({ method, path, ...(body ? { body } : {}) });
    const run: AdminHandler = body
      ? (ctx) => {
          declaredBody.set(ctx, body);
          return handler(ctx);
        }
      : (ctx) => {
          refuseBody(ctx);
          return handler(ctx);
        };
    router[method](path, run as unknown as Middleware);
  };
}

/** The routes declared on `router`, in declaration order. */
export function adminRouteDeclarations(router: Router<SandboxState>): readonly AdminRouteDeclaration[] {
  return declarations.get(router) ?? [];
}

/** A route without a body: any member is unknown (json-body.ts made an absent or empty body `{}`). */
function refuseBody(ctx: SandboxContext): void {
  const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  const [first] = Object.keys(body);
  if (first !== undefined) throw new ApiError('parameter_unknown', { param: first, message: MESSAGES.bodylessRoute(first) });
}

const bodyValidators = new WeakMap<JsonSchema, ReturnType<typeof compileSchema>>();
const queryValidators = new WeakMap<JsonSchema, ReturnType<typeof compileSchema>>();

function cached(cache: WeakMap<JsonSchema, ReturnType<typeof compileSchema>>, schema: JsonSchema, compile: typeof compileSchema) {
  let validate = cache.get(schema);
  if (!validate) cache.set(schema, (validate = compile(schema)));
  return validate;
}

/** The JSON body, checked against `schema`, the one its route declared (an absent body is `{}`). */
export function bodyOf<T>(ctx: SandboxContext, schema: JsonSchema): T {
  // A route reading a body it did not declare would refuse every body before reading it.
  if (declaredBody.get(ctx) !== schema) throw new Error(`admin route ${ctx.method} ${ctx.path} reads a body it does not declare`);
  const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  validateBody(cached(bodyValidators, schema, compileSchema), body, schema);
  return body as T;
}

/** The query string, coerced and checked against `schema` (defaults filled in). */
export function queryOf<T>(ctx: SandboxContext, schema: JsonSchema): T {
  const query: Record<string, unknown> = { ...ctx.query };
  validateQuery(cached(queryValidators, schema, compileQuerySchema), query);
  return query as T;
}

export function pathParam(ctx: SandboxContext, name: string): string {
  return (ctx as unknown as { params: Record<string, string> }).params[name] ?? '';
}
