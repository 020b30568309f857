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
import { isInClockRange, MAX_INSTANT, MAX_INSTANT_MS, MIN_INSTANT, parseInstant } from '../clock/virtual-clock.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxMiddleware, SandboxState } from '../http/context.js';
import { jsonBody } from '../http/json-body.js';
import { routeFallback } from '../http/router.js';
import type { JsonSchema } from '../operations/types.js';
import type { ResolvedOptions } from '../config/options.js';
import { apiKeyView } from '../resources/api-keys/schemas.js';
import { jobSummary } from '../resources/jobs/admin-summary.js';
import { FixtureError, loadFixture } from '../fixture/fixture-file.js';
import type { Plan } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { adminAuth, adminSameSite } from './guard.js';
import { registerJournalRoutes } from './journal-routes.js';
import { adminRoute, bodyOf, pathParam } from './route-kit.js';
import { registerScenarioRoutes } from './scenario-routes.js';

const createAccountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { plan: { enum: ['free', 'paid'] }, // A name under fixtures/, never a path: the admin API must not read arbitrary files of the host.
    fixture: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }, name: { type: 'string', minLength: 1 } },
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
const setClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { mode: { enum: ['running', 'frozen'] }, now: { type: 'string', format: 'date-time' } },
};
const advanceClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['seconds'],
  properties: { seconds: { type: 'number', minimum: 0, maximum: 10 * 365 * 24 * 3600 } },
};

/**
 * The instant a clock call asks for, refused (422, naming the field) outside the clock's range: past
 * it, every timestamp the sandbox writes would be one it cannot read back (issue 13.7).
 */
function clockTarget(ctx: SandboxContext, body: { now?: string; seconds?: number }): number | undefined {
  if (body.now !== undefined) {
    const at = parseInstant(body.now);
    if (at === undefined || !isInClockRange(at)) throw validationFailed({ now: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] });
    return at;
  }
  if (body.seconds === undefined) return undefined;
  const now = ctx.sandbox.world.clock.now();
  const at = now + body.seconds * 1000;
  if (!isInClockRange(at)) throw validationFailed({ seconds: [MESSAGES.clockAdvancePast(MAX_INSTANT, Math.floor((MAX_INSTANT_MS - now) / 1000))] });
  return at;
}

/** The account, its jobs settled first: admin views show credits, and credits follow the clock. */
function accountOr404(ctx: SandboxContext, id: string): AccountStore {
  const account = ctx.sandbox.world.store.forAccount(id);
  if (!account) throw new ApiError('resource_missing', { param: 'id', message: `No such account: '${id}'.` });
  ctx.sandbox.world.settleJobs(account);
  return account;
}

/**
 * `GET /__admin/accounts/{id}`: the account and every collection it holds, plus credits. Jobs are
 * summarized (a completed crawl's pages are read through `GET /v1/jobs/{id}`), so the answer grows
 * with the number of jobs, never with their pages.
 */
export function accountState(account: AccountStore) {
  const snapshot = account.snapshot();
  return { account: account.account, state: { ...snapshot, jobs: snapshot.jobs.map(jobSummary), credits: account.account.credits } };
}

export const ADMIN_PREFIX = '/__admin';

/**
 * Everything under /__admin (app.ts sends only paths `isUnder` it): the guards, then the routes;
 * a path no route has answers 404, a route's path with another method 405 with `Allow`.
 */
export function adminApi(options: Pick<ResolvedOptions, 'host' | 'allowedHosts' | 'adminToken'>): SandboxMiddleware {
  const router = buildAdminRouter();
  return compose<SandboxContext>([
    adminSameSite(options),
    adminAuth(options.adminToken),
    routeFallback(router),
    router.routes() as unknown as SandboxMiddleware,
  ]) as SandboxMiddleware;
}

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
    const data = ctx.sandbox.world.store.accountIds().map((id) => accountOr404(ctx, id).account);
    ctx.body = { object: 'list', data, has_more: false };
  });

  route('post', '/accounts', (ctx) => {
    const body = bodyOf<{ plan?: Plan; fixture?: string; name?: string }>(ctx, createAccountSchema);
    const { fixture, world } = ctx.sandbox;
    let template = fixture.template;
    if (body.fixture !== undefined && body.fixture !== fixture.name) {
      try {
        template = loadFixture(body.fixture).template;
      } catch (error) {
        // The loader's message may quote the file; say only which fixture is unusable.
        const reason = error instanceof FixtureError && error.message.includes('file not found') ? 'no such fixture' : 'not a valid fixture';
        throw new ApiError('validation_failed', { param: 'fixture', errors: { fixture: [`${reason}: '${body.fixture}'`] } });
      }
    }
    const account = world.createAccount({ plan: body.plan ?? 'free', ...(body.name ? { name: body.name } : {}), template });
    const { key, token } = world.createApiKey(account, { name: 'Default' });
    ctx.status = 201;
    ctx.body = { account: account.account, api_key: apiKeyView(key, token) };
  });

  route('get', '/accounts/:id', (ctx) => {
    ctx.body = accountState(accountOr404(ctx, pathParam(ctx, 'id')));
  });

  route('patch', '/accounts/:id', (ctx) => {
    const account = accountOr404(ctx, pathParam(ctx, 'id'));
    const body = bodyOf<{ plan: Plan }>(ctx, patchAccountSchema);
    account.account.plan = body.plan;
    ctx.body = { account: account.account };
  });

  route('post', '/api_keys', (ctx) => {
    const body = bodyOf<{ account_id: string; name?: string | null; access?: 'full' | 'read_only'; expires_at?: string | null }>(ctx, createKeySchema);
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
    const now = ctx.sandbox.world.timestamp();
    if (action === 'expire') found.key.expires_at = now;
    else found.key.revoked_at = now;
    ctx.body = { ...apiKeyView(found.key), access: found.key.access, revoked_at: found.key.revoked_at };
  };
  route('post', '/api_keys/:id/expire', keyAction('expire'));
  route('post', '/api_keys/:id/revoke', keyAction('revoke'));

  route('get', '/clock', (ctx) => {
    ctx.body = ctx.sandbox.world.clock.snapshot();
  });

  route('post', '/clock', (ctx) => {
    const body = bodyOf<{ mode?: 'running' | 'frozen'; now?: string }>(ctx, setClockSchema);
    const now = clockTarget(ctx, body);
    ctx.sandbox.world.clock.set({ ...(body.mode ? { mode: body.mode } : {}), ...(now === undefined ? {} : { now }) });
    ctx.body = ctx.sandbox.world.clock.snapshot();
  });

  route('post', '/clock/advance', (ctx) => {
    const body = bodyOf<{ seconds: number }>(ctx, advanceClockSchema);
    // Everything time-based is derived from the clock, so once this returns all that was due has happened.
    // The target is computed once: a running clock read again would be a little later.
    ctx.sandbox.world.clock.set({ now: clockTarget(ctx, body) });
    ctx.body = ctx.sandbox.world.clock.snapshot();
  });

  registerScenarioRoutes(route);
  registerJournalRoutes(route);
  return router;
}
