/** Contract §3.1 and §3.3: health, reset, and the sandbox clock. */
import type { SandboxContext } from '../http/context.js';
import type { ClockState } from './api-types.js';
import { clockStateSchema, statusOkSchema } from './answer-schemas.js';
import { advanceClockSchema, clockAdvanceChange, clockSetChange, setClockSchema, type ClockChange } from './clock-input.js';
import { adminOperation } from './route-kit.js';
import type { VirtualClock } from '../clock/virtual-clock.js';

const clockAnswer = { status: 200, description: 'The sandbox clock.', schema: clockStateSchema } as const;

/**
 * Moves the sandbox clock and the accounts sharing it; accounts with their own clock stay (contract
 * §4.1). Answers once everything due by the new time has happened: webhooks of the accounts on
 * the sandbox clock included (contract §4.3), their attempts awaited.
 */
async function moveSandboxClock(ctx: SandboxContext, change: (clock: VirtualClock) => ClockChange): Promise<ClockState> {
  const { world } = ctx.sandbox;
  world.clock.set(change(world.clock));
  await world.webhooks.clockMoved(world.clock);
  return world.clock.snapshot();
}

export const SANDBOX_OPERATIONS = [
  adminOperation({
    route: 'GET /health',
    summary: 'Whether the sandbox answers',
    client: ['admin.health()'],
    answer: { status: 200, description: '`{"status": "ok"}`', schema: statusOkSchema },
    errors: [],
    handler: () => ({ status: 'ok' }),
  }),
  adminOperation({
    route: 'POST /reset',
    summary: 'Everything back to the boot state',
    description:
      'Accounts, keys, records, counters, request ids, scenarios (boot ones re-activated), the journal, webhook endpoints and deliveries (attempts in flight aborted) and the clock back to the boot state.',
    client: ['admin.reset()'],
    answer: { status: 200, description: '`{"status": "ok"}`', schema: statusOkSchema },
    errors: [],
    handler: (ctx) => {
      ctx.sandbox.reset();
      return { status: 'ok' };
    },
  }),
  adminOperation({
    route: 'GET /clock',
    summary: 'The sandbox clock',
    client: ['admin.clock.get()'],
    answer: clockAnswer,
    errors: [],
    handler: (ctx) => ctx.sandbox.world.clock.snapshot(),
  }),
  adminOperation({
    route: 'POST /clock',
    summary: 'Set the sandbox clock: its mode, its instant, or both',
    description: 'Accounts with their own clock stay where they are (contract §4.1). An instant out of the clock range is 422.',
    client: ['admin.clock.set()', 'admin.clock.freeze()'],
    body: setClockSchema,
    answer: clockAnswer,
    errors: [422],
    handler: (ctx, request) => moveSandboxClock(ctx, (clock) => clockSetChange(request.body(), clock)),
  }),
  adminOperation({
    route: 'POST /clock/advance',
    summary: 'Move the sandbox clock forward',
    description:
      'Answers once everything due by the new time has happened, webhook deliveries of the accounts on the sandbox clock included: a test never sleeps for real.',
    client: ['admin.clock.advance(s)'],
    body: advanceClockSchema,
    answer: clockAnswer,
    errors: [422],
    handler: (ctx, request) => moveSandboxClock(ctx, (clock) => clockAdvanceChange(request.body(), clock)),
  }),
];
