/**
 * The account lookup every admin route shares, and the account's state as `GET /__admin/accounts/{id}`
 * answers it. Apart from the route declarations, so that the admin API's types (api-types.ts) can
 * name the state's type without importing any route.
 */
import { MESSAGES } from '../errors/messages.js';
import { ApiError } from '../errors/api-error.js';
import type { SandboxContext } from '../http/context.js';
import { jobSummary } from '../resources/jobs/admin-summary.js';
import { accountView } from '../sandbox/lifecycle.js';
import type { World } from '../sandbox/world.js';
import type { AccountStore } from '../store/store.js';

/** The account, its jobs brought up to its clock; a 404 naming `param` when there is none. */
export function accountOr404(ctx: SandboxContext, id: string, param = 'id'): AccountStore {
  const account = ctx.sandbox.world.store.forAccount(id);
  if (!account) throw new ApiError('resource_missing', { param, message: MESSAGES.noSuchAccount(id) });
  // On the account's own clock when it has one (contract §4.1); admin views show credits, and credits follow the clock.
  ctx.sandbox.world.timeOf(id).services.settleJobs(account);
  return account;
}

export type AccountLookup = typeof accountOr404;

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
