/**
 * Contract §4.1: accounts as tenants of parallel test workers. An account's own clock, reset of one
 * account and its deletion. The account object of every answer carries its `clock`.
 */
import { MESSAGES } from '../errors/messages.js';
import type { VirtualClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/api-error.js';
import type { SandboxContext } from '../http/context.js';
import { accountView, clockView, deleteAccount, ownClockOf, resetAccount } from '../sandbox/lifecycle.js';
import type { AccountClockState, AdvancedBy } from './api-types.js';
import { accountOr404 } from './account-state.js';
import { accountAnswerSchema, accountClockSchema, advancedClockSchema, deletedSchema } from './answer-schemas.js';
import {
  advanceClockSchema,
  advancedMember,
  applyClockMove,
  clockAdvanceMove,
  clockSetChange,
  setClockSchema,
  type ClockMove,
} from './clock-input.js';
import { adminOperation } from './route-kit.js';

const clockAnswer = { status: 200, description: "The account's clock.", schema: accountClockSchema } as const;

/**
 * The change is read against the clock the account follows now, then applied to its own clock
 * (made from the sandbox clock, at the same instant, on the first call): a refused body leaves an
 * account on the shared clock where it was.
 */
async function moveOwnClock(
  ctx: SandboxContext,
  id: string,
  read: (clock: VirtualClock) => ClockMove,
): Promise<AccountClockState & AdvancedBy> {
  const { world } = ctx.sandbox;
  const account = accountOr404(ctx, id);
  const wanted = read(world.timeOf(account.id).clock);
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
    throw new ApiError('resource_missing', { param: 'id', message: MESSAGES.noSuchAccount(account.id) });
  return { ...clockView(world, account.id), ...advancedMember(advanced) };
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
    description:
      'Answers once everything of the account due by the new time has happened, its webhook deliveries included. With `{"until": "idle"}` (contract §5.4) the clock steps from one due instant to the next until nothing of the account is due (every job ended, every delivery succeeded or failed), at most `max_seconds` (default a week); the answer adds `advanced_seconds`.',
    client: ['tenant.clock.advance(s)', "tenant.clock.advance({ until: 'idle' })"],
    body: advanceClockSchema,
    answer: {
      status: 200,
      description: 'The account\'s clock; after `until: "idle"`, with `advanced_seconds`.',
      schema: advancedClockSchema(accountClockSchema),
    },
    errors: [404, 422],
    handler: (ctx, request) => moveOwnClock(ctx, request.params.id, (clock) => clockAdvanceMove(request.body(), clock)),
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
