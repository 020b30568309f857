/**
 * What every admin route file shares: a typed way to register handlers, and the body, query and
 * path readers that validate like the API does (400 for unknown or missing fields, 422 for bad values).
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { SandboxContext, SandboxState } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import { compileQuerySchema, compileSchema, validateBody, validateQuery } from '../operations/validation.js';

export type AdminHandler = (ctx: SandboxContext) => void | Promise<void>;
export type AdminRoute = (method: 'get' | 'post' | 'patch' | 'delete', path: string, handler: AdminHandler) => void;

export function adminRoute(router: Router<SandboxState>): AdminRoute {
  return (method, path, handler) => {
    router[method](path, handler as unknown as Middleware);
  };
}

const bodyValidators = new WeakMap<JsonSchema, ReturnType<typeof compileSchema>>();
const queryValidators = new WeakMap<JsonSchema, ReturnType<typeof compileSchema>>();

function cached(cache: WeakMap<JsonSchema, ReturnType<typeof compileSchema>>, schema: JsonSchema, compile: typeof compileSchema) {
  let validate = cache.get(schema);
  if (!validate) cache.set(schema, (validate = compile(schema)));
  return validate;
}

/** The JSON body, checked against `schema` (an absent body is `{}`). */
export function bodyOf<T>(ctx: SandboxContext, schema: JsonSchema): T {
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
