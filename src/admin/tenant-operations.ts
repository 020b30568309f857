/**
 * Contract §4.1: accounts as tenants of parallel test workers. An account's own clock, reset of one
 * account and its deletion. The account object of every answer carries its `clock`.
 */
import { MESSAGES } from '../errors/messages.js';
import type { VirtualClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/api-error.js';
import type { SandboxContext } from '../http/context.js';
import { accountView, clockView, deleteAccount, ownClockOf, resetAccount } from '../sandbox/lifecycle.js';
import type { AccountClockState } from './api-types.js';
import { accountOr404 } from './account-state.js';
import { accountAnswerSchema, accountClockSchema, deletedSchema } from './answer-schemas.js';
import { advanceClockSchema, clockAdvanceChange, clockSetChange, setClockSchema, type ClockChange } from './clock-input.js';
import { adminOperation } from './route-kit.js';

const clockAnswer = { status: 200, description: "The account's clock.", schema: accountClockSchema } as const;

/**
 * The change is read against the clock the account follows now, then applied to its own clock
 * (made from the sandbox clock, at the same instant, on the first call): a refused body leaves an
 * account on the shared clock where it was.
 */
async function moveOwnClock(ctx: SandboxContext, id: string, change: (clock: VirtualClock) => ClockChange): Promise<AccountClockState> {
  const { world } = ctx.sandbox;
  const account = accountOr404(ctx, id);
  const wanted = change(world.timeOf(account.id).clock);
  const tenant = world.tenants.get(account.id);
  if (!tenant) throw new Error(`account ${account.id} has no tenant record`);
  ownClockOf(world, account, tenant).clock.set(wanted);
  // Its webhooks due by the new time are sent, and their attempts awaited, before the answer (contract §4.3).
  await world.webhooks.accountClockMoved(account.id);
  // Deleted while its webhooks were being sent: its clock is gone with it.
  if (!world.store.forAccount(account.id))
    throw new ApiError('resource_missing', { param: 'id', message: MESSAGES.noSuchAccount(account.id) });
  return clockView(world, account.id);
}

export const TENANT_OPERATIONS = [
  adminOperation({
    route: 'GET /accounts/{id}/clock',
    summary: "An account's clock",
    client: ['admin.accounts.clock(id).get()', 'tenant.clock.get()'],
    answer: clockAnswer,
    errors: [404],
    handler: (ctx, request) => clockView(ctx.sandbox.world, accountOr404(ctx, request.params.id).id),
  }),
  adminOperation({
    route: 'POST /accounts/{id}/clock',
    summary: "Set an account's own clock",
    description: 'An account on the shared clock gets its own, from the sandbox clock at the same instant (`"shared": false`).',
    client: ['tenant.clock.set()', '.freeze()', '.run()'],
    body: setClockSchema,
    answer: clockAnswer,
    errors: [404, 422],
    handler: (ctx, request) => moveOwnClock(ctx, request.params.id, (clock) => clockSetChange(request.body(), clock)),
  }),
  adminOperation({
    route: 'POST /accounts/{id}/clock/advance',
    summary: "Move an account's own clock forward",
    description: 'Answers once everything of the account due by the new time has happened, its webhook deliveries included.',
    client: ['tenant.clock.advance(s)'],
    body: advanceClockSchema,
    answer: clockAnswer,
    errors: [404, 422],
    handler: (ctx, request) => moveOwnClock(ctx, request.params.id, (clock) => clockAdvanceChange(request.body(), clock)),
  }),
  adminOperation({
    route: 'POST /accounts/{id}/reset',
    summary: 'One account back to right after its creation',
    description: 'Same id, keys, tokens and records; fresh counters.',
    client: ['admin.accounts.reset(id)', 'tenant.reset()'],
    answer: { status: 200, description: '`{"account"}`', schema: accountAnswerSchema },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      accountOr404(ctx, id);
      const account = resetAccount(ctx.sandbox.world, id);
      if (!account) throw new Error(`account ${id} has no birth record`);
      return { account: accountView(ctx.sandbox.world, account) };
    },
  }),
  adminOperation({
    route: 'DELETE /accounts/{id}',
    summary: 'Delete an account and everything of it',
    description: 'Its tokens answer 401 from then on.',
    client: ['admin.accounts.delete(id)', 'tenant.delete()'],
    answer: {
      status: 200,
      description: '`{"id", "object": "account", "deleted": true}`',
      schema: deletedSchema('DeletedAccount', 'account'),
    },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = accountOr404(ctx, request.params.id);
      deleteAccount(ctx.sandbox.world, id);
      return { id, object: 'account', deleted: true };
    },
  }),
];
