/**
 * The admin API of contract §3 under /__admin: never rate-limited, never counted, no API key.
 * Admin calls act on the sandbox's current world (`ctx.sandbox.world`), read when they act: a call
 * whose body arrived after a reset acts on the new world, as its sender expects.
 * Only the sandbox's own origin and host names reach it, and with an admin token configured every
 * call needs `X-Admin-Token` (src/admin/guard.ts). Errors use the same envelope. The routes are
 * declared as data beside their features and gathered in one table (src/admin/operations.ts).
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { SandboxContext, SandboxMiddleware, SandboxState } from '../http/context.js';
import { jsonBody } from '../http/json-body.js';
import { routeFallback } from '../http/router.js';
import type { ResolvedOptions } from '../config/options.js';
import { dashboardPage } from './dashboard-route.js';
import { adminAuth, adminSameSite } from './guard.js';
import { ADMIN_OPERATIONS } from './operations.js';
import { mountAdminOperations } from './route-kit.js';

export const ADMIN_PREFIX = '/__admin';

/**
 * Everything under /__admin (app.ts sends only paths `isUnder` it): the guards (the dashboard's
 * document between the two), then the routes;
 * a path no route has answers 404, a route's path with another method 405 with `Allow`.
 */
export function adminApi(options: Pick<ResolvedOptions, 'host' | 'allowedHosts' | 'adminToken'>): SandboxMiddleware {
  const build = (): SandboxMiddleware => {
    const router = (sharedRouter ??= buildAdminRouter());
    return compose<SandboxContext>([
      adminSameSite(options),
      // The dashboard's document needs no token (it holds no data; its calls send the token).
      dashboardPage(ADMIN_PREFIX),
      adminAuth(options.adminToken),
      routeFallback(router),
      router.routes() as unknown as SandboxMiddleware,
    ]) as SandboxMiddleware;
  };
  // Built at the first admin request: a CLI that is only asked /v1 requests (and its cold start, issue
  // 16) never compiles the admin routes.
  let admin: SandboxMiddleware | undefined;
  return function adminApiMiddleware(ctx, next) {
    return (admin ??= build())(ctx, next);
  };
}

/**
 * The routes hold no state of an app (handlers read `ctx.sandbox`), so one router serves every app
 * of the process: building it (~0.25 ms of path-to-regexp compiling) was a quarter of createApp.
 */
let sharedRouter: Router<SandboxState> | undefined;

export function buildAdminRouter(): Router<SandboxState> {
  // Exact matching, as everywhere else (src/http/path-prefix.ts): @koa/router ignores case and a
  // trailing slash by default, which once let `/__ADMIN/reset` past the token check.
  const router = new Router<SandboxState>({ prefix: ADMIN_PREFIX, sensitive: true, strict: true });
  // Bodies are read only for a route that matched (router.use runs with matched routes only).
  router.use(jsonBody() as unknown as Middleware);
  mountAdminOperations(router, ADMIN_OPERATIONS);
  return router;
}
