/**
 * `GET /__admin/ui` (contract §4.4): the dashboard's document. It runs after the same-site guard but
 * before the token check: the document holds no data (everything it shows, it reads through the
 * admin API, sending the token), so a browser can open it and be asked for the token there.
 */
import Router from '@koa/router';
import type { SandboxMiddleware, SandboxState } from '../http/context.js';
import { DASHBOARD_CSP, DASHBOARD_HTML } from '../ui/dashboard-document.js';

export const DASHBOARD_PATH = '/ui';

export function dashboardPage(prefix: string): SandboxMiddleware {
  // Matched exactly, like every admin path (src/admin/routes.ts): `/__admin/UI` and `/__admin/ui/` are not it.
  const router = new Router<SandboxState>({ prefix, sensitive: true, strict: true });
  // @koa/router answers HEAD with the GET route (headers, no body).
  router.get(DASHBOARD_PATH, (ctx) => {
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    // Each version of the sandbox serves its own page (the CSP names the script's hash): never reuse an old one.
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DASHBOARD_HTML;
  });
  return router.routes() as unknown as SandboxMiddleware;
}
