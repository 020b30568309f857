/**
 * The admin API of contract §3 under /__admin: never rate-limited, never counted, no API key.
 * Admin calls act on the sandbox's current world (`ctx.sandbox.world`), read when they act: a call
 * whose body arrived after a reset acts on the new world, as its sender expects.
 * Only the sandbox's own origin and host names reach it, and with an admin token configured every
 * call needs `X-Admin-Token` (src/admin/guard.ts). Errors use the same envelope.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { ApiError, validationFailed } from '../errors/api-error.js';
import { isInClockRange, isoTimestamp, MAX_INSTANT, MIN_INSTANT } from '../clock/virtual-clock.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxMiddleware, SandboxState } from '../http/context.js';
import { jsonBody } from '../http/json-body.js';
import { routeFallback } from '../http/router.js';
import type { JsonSchema } from '../operations/types.js';
import type { ResolvedOptions } from '../config/options.js';
import { apiKeyView } from '../resources/api-keys/schemas.js';
import { jobSummary } from '../resources/jobs/admin-summary.js';
import type { Plan } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { clockBirth, type ClockBirth } from '../sandbox/account-clock.js';
import { accountView } from '../sandbox/lifecycle.js';
import type { World } from '../sandbox/world.js';
import { accountSource, ACCOUNT_SOURCE_PROPERTIES, type AccountSourceInput } from './account-source.js';
import { advanceClockSchema, clockAdvanceChange, clockSetChange, setClockSchema } from './clock-input.js';
import { dashboardPage } from './dashboard-route.js';
import { adminAuth, adminSameSite } from './guard.js';
import { registerCoverageRoutes } from './coverage-routes.js';
import { registerHarRoute } from './har-route.js';
import { registerJournalRoutes } from './journal-routes.js';
import { adminRoute, bodyOf, pathParam } from './route-kit.js';
import { registerScenarioRoutes } from './scenario-routes.js';
import { listAccounts, registerTenantRoutes } from './tenant-routes.js';
import { registerWebhookRoutes } from './webhook-routes.js';

const createAccountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    plan: { enum: ['free', 'paid'] },
    // `fixture`, `template`, `pinned`: where the records come from (src/admin/account-source.ts).
    ...ACCOUNT_SOURCE_PROPERTIES,
    name: { type: 'string', minLength: 1 },
    // `shared`, `frozen`, `running` or an instant (contract §4.1); the instant is checked by `accountClockBirth`.
    clock: { type: 'string', minLength: 1 },
  },
};
const patchAccountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: { plan: { enum: ['free', 'paid'] } },
};
const createKeySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id'],
  properties: {
    account_id: { type: 'string', minLength: 1 },
    name: { type: ['string', 'null'], maxLength: 255 },
    access: { enum: ['full', 'read_only'] },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

/** The account, its jobs settled first: admin views show credits, and credits follow the clock. */
/** The account, its jobs brought up to its clock; a 404 naming `param` when there is none. */
function accountOr404(ctx: SandboxContext, id: string, param = 'id'): AccountStore {
  const account = ctx.sandbox.world.store.forAccount(id);
  if (!account) throw new ApiError('resource_missing', { param, message: `No such account: '${id}'.` });
  // On the account's own clock when it has one (contract §4.1).
  ctx.sandbox.world.timeOf(id).services.settleJobs(account);
  return account;
}

/** The `clock` of `POST /__admin/accounts`, refused (422, naming it) when it is none of the forms or out of range. */
function accountClockBirth(ctx: SandboxContext, setting: string | undefined): ClockBirth {
  const birth = clockBirth(setting, ctx.sandbox.world.clock.now());
  if (birth === undefined) throw validationFailed({ clock: [MESSAGES.accountClockSetting] });
  if (!isInClockRange(birth.start)) throw validationFailed({ clock: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] });
  return birth;
}

/**
 * `GET /__admin/accounts/{id}`: the account and every collection it holds, plus credits. Jobs are
 * summarized (a completed crawl's pages are read through `GET /v1/jobs/{id}`), so the answer grows
 * with the number of jobs, never with their pages.
 */
export function accountState(world: World, account: AccountStore) {
  const snapshot = account.snapshot();
  return {
    account: accountView(world, account),
    state: { ...snapshot, jobs: snapshot.jobs.map(jobSummary), credits: account.account.credits },
  };
}

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
  const route = adminRoute(router);

  route('get', '/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  route('post', '/reset', (ctx) => {
    ctx.sandbox.reset();
    ctx.body = { status: 'ok' };
  });

  route('get', '/accounts', (ctx) => {
    const page = listAccounts(ctx);
    ctx.body = {
      object: 'list',
      data: page.ids.map((id) => accountView(ctx.sandbox.world, accountOr404(ctx, id))),
      has_more: page.hasMore,
    };
  });

  route('post', '/accounts', { body: createAccountSchema }, (ctx) => {
    const body = bodyOf<{ plan?: Plan; name?: string; clock?: string } & AccountSourceInput>(ctx, createAccountSchema);
    const clock = accountClockBirth(ctx, body.clock);
    const { fixture, world } = ctx.sandbox;
    const { template, pinned } = accountSource(body, fixture);
    const account = world.createAccount({ plan: body.plan ?? 'free', ...(body.name ? { name: body.name } : {}), template, pinned, clock });
    const { key, token } = world.createApiKey(account, { name: 'Default' });
    // What `POST /__admin/accounts/{id}/reset` restores: the account with this key and its token.
    world.sealBirth(account);
    ctx.status = 201;
    ctx.body = { account: accountView(world, account), api_key: apiKeyView(key, token) };
  });

  route('get', '/accounts/:id', (ctx) => {
    ctx.body = accountState(ctx.sandbox.world, accountOr404(ctx, pathParam(ctx, 'id')));
  });

  route('patch', '/accounts/:id', { body: patchAccountSchema }, (ctx) => {
    const account = accountOr404(ctx, pathParam(ctx, 'id'));
    const body = bodyOf<{ plan: Plan }>(ctx, patchAccountSchema);
    account.account.plan = body.plan;
    ctx.body = { account: accountView(ctx.sandbox.world, account) };
  });

  route('post', '/api_keys', { body: createKeySchema }, (ctx) => {
    const body = bodyOf<{ account_id: string; name?: string | null; access?: 'full' | 'read_only'; expires_at?: string | null }>(
      ctx,
      createKeySchema,
    );
    const account = ctx.sandbox.world.store.forAccount(body.account_id);
    if (!account) throw new ApiError('resource_missing', { param: 'account_id', message: `No such account: '${body.account_id}'.` });
    const { key, token } = ctx.sandbox.world.createApiKey(account, { name: body.name, access: body.access, expiresAt: body.expires_at });
    ctx.status = 201;
    ctx.body = { ...apiKeyView(key, token), access: key.access };
  });

  const keyAction = (action: 'expire' | 'revoke') => (ctx: SandboxContext) => {
    const id = pathParam(ctx, 'id');
    const found = ctx.sandbox.world.store.findKeyById(id);
    if (!found) throw new ApiError('resource_missing', { param: 'id', message: `No such API key: '${id}'.` });
    // On the key's account clock: an expired key stays expired on the clock that judges it.
    const now = isoTimestamp(ctx.sandbox.world.timeOf(found.account.id).clock.now());
    if (action === 'expire') found.key.expires_at = now;
    else found.key.revoked_at = now;
    ctx.body = { ...apiKeyView(found.key), access: found.key.access, revoked_at: found.key.revoked_at };
  };
  route('post', '/api_keys/:id/expire', keyAction('expire'));
  route('post', '/api_keys/:id/revoke', keyAction('revoke'));

  route('get', '/clock', (ctx) => {
    ctx.body = ctx.sandbox.world.clock.snapshot();
  });

  /**
   * Moves the sandbox clock and the accounts sharing it; accounts with their own clock stay (contract
   * §4.1). Answers once everything due by the new time has happened: webhooks of the accounts on
   * the sandbox clock included (contract §4.3), their attempts awaited.
   */
  const moveSandboxClock = (change: typeof clockSetChange) => async (ctx: SandboxContext) => {
    const { world } = ctx.sandbox;
    world.clock.set(change(ctx, world.clock));
    await world.webhooks.clockMoved(world.clock);
    ctx.body = world.clock.snapshot();
  };
  route('post', '/clock', { body: setClockSchema }, moveSandboxClock(clockSetChange));
  route('post', '/clock/advance', { body: advanceClockSchema }, moveSandboxClock(clockAdvanceChange));

  registerTenantRoutes(route, accountOr404);
  registerScenarioRoutes(route);
  registerJournalRoutes(route);
  registerHarRoute(route);
  registerCoverageRoutes(route);
  registerWebhookRoutes(route, accountOr404);
  return router;
}
