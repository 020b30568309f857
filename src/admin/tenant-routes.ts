/**
 * Contract §4.1: accounts as tenants of parallel test workers. Listing, an account's own clock,
 * reset of one account and its deletion. The account object of every answer carries its `clock`.
 */
import type { VirtualClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import type { AccountStore } from '../store/store.js';
import { accountView, clockView, deleteAccount, ownClockOf, resetAccount } from '../sandbox/lifecycle.js';
import {
  advanceClockSchema,
  advancedMember,
  applyClockMove,
  clockAdvanceMove,
  clockSetChange,
  setClockSchema,
  type ClockMove,
} from './clock-input.js';
import { pathParam, queryOf, type AdminRoute } from './route-kit.js';

/** `limit` bounds of `GET /__admin/accounts`: as the journal's, since a run may create many tenants. */
export const ACCOUNT_PAGE = { default: 100, max: 1000 } as const;

const listSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    starting_after: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: ACCOUNT_PAGE.max, default: ACCOUNT_PAGE.default },
  },
};

/** One page of account ids, in creation order (fixture accounts first); a reset keeps an account's place. */
export function listAccounts(ctx: SandboxContext): { ids: string[]; hasMore: boolean } {
  const query = queryOf<{ starting_after?: string; limit: number }>(ctx, listSchema);
  const all = ctx.sandbox.world.store.accountIds();
  let start = 0;
  if (query.starting_after !== undefined) {
    const at = all.indexOf(query.starting_after);
    if (at < 0)
      throw new ApiError('bad_request', { param: 'starting_after', message: MESSAGES.unknownAccountCursor(query.starting_after) });
    start = at + 1;
  }
  return { ids: all.slice(start, start + query.limit), hasMore: start + query.limit < all.length };
}

export type AccountLookup = (ctx: SandboxContext, id: string, param?: string) => AccountStore;

export function registerTenantRoutes(route: AdminRoute, accountOr404: AccountLookup): void {
  route('get', '/accounts/:id/clock', (ctx) => {
    const account = accountOr404(ctx, pathParam(ctx, 'id'));
    ctx.body = clockView(ctx.sandbox.world, account.id);
  });

  /**
   * The change is read against the clock the account follows now, then applied to its own clock
   * (made from the sandbox clock, at the same instant, on the first call): a refused body leaves an
   * account on the shared clock where it was.
   */
  const moveOwnClock = (read: (ctx: SandboxContext, clock: VirtualClock) => ClockMove) => async (ctx: SandboxContext) => {
    const { world } = ctx.sandbox;
    const account = accountOr404(ctx, pathParam(ctx, 'id'));
    const wanted = read(ctx, world.timeOf(account.id).clock);
    const tenant = world.tenants.get(account.id);
    if (!tenant) throw new Error(`account ${account.id} has no tenant record`);
    const { clock } = ownClockOf(world, account, tenant);
    // Its webhooks due by the new time are sent, and their attempts awaited, before the answer (contract §4.3).
    const advanced = await applyClockMove(wanted, clock, {
      nextDue: () => world.webhooks.nextDueOf(account.id),
      moved: () => world.webhooks.accountClockMoved(account.id),
      live: () => world.store.holds(account),
    });
    // Deleted while its webhooks were being sent: its clock is gone with it.
    if (!world.store.forAccount(account.id))
      throw new ApiError('resource_missing', { param: 'id', message: `No such account: '${account.id}'.` });
    ctx.body = { ...clockView(world, account.id), ...advancedMember(advanced) };
  };
  route('post', '/accounts/:id/clock', { body: setClockSchema }, moveOwnClock(clockSetChange));
  route('post', '/accounts/:id/clock/advance', { body: advanceClockSchema }, moveOwnClock(clockAdvanceMove));

  route('post', '/accounts/:id/reset', (ctx) => {
    const id = pathParam(ctx, 'id');
    accountOr404(ctx, id);
    const account = resetAccount(ctx.sandbox.world, id);
    if (!account) throw new Error(`account ${id} has no birth record`);
    ctx.body = { account: accountView(ctx.sandbox.world, account) };
  });

  route('delete', '/accounts/:id', (ctx) => {
    const { id } = accountOr404(ctx, pathParam(ctx, 'id'));
    deleteAccount(ctx.sandbox.world, id);
    ctx.body = { id, object: 'account', deleted: true };
  });
}
