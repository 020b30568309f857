/** Contract §3.1 and §3.3: health, reset, and the sandbox clock. */
import type { SandboxContext } from '../http/context.js';
import type { AdvancedBy, ClockState } from './api-types.js';
import { advancedClockSchema, clockStateSchema, statusOkSchema } from './answer-schemas.js';
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
import type { VirtualClock } from '../clock/virtual-clock.js';

const clockAnswer = { status: 200, description: 'The sandbox clock.', schema: clockStateSchema } as const;
const advanceAnswer = {
  status: 200,
  description: 'The sandbox clock; after `until: "idle"`, with `advanced_seconds`.',
  schema: advancedClockSchema(clockStateSchema),
} as const;

/**
 * Moves the sandbox clock and the accounts sharing it; accounts with their own clock stay (contract
 * §4.1). Answers once everything due by the new time has happened: webhooks of the accounts on
 * the sandbox clock included (contract §4.3), their attempts awaited.
 */
async function moveSandboxClock(ctx: SandboxContext, read: (clock: VirtualClock) => ClockMove): Promise<ClockState & AdvancedBy> {
  const { clock, webhooks } = ctx.sandbox.world;
  const advanced = await applyClockMove(read(clock), clock, {
    nextDue: () => webhooks.nextDueOn(clock),
    moved: () => webhooks.clockMoved(clock),
  });
  return { ...clock.snapshot(), ...advancedMember(advanced) };
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
      'Answers once everything due by the new time has happened, webhook deliveries of the accounts on the sandbox clock included: a test never sleeps for real. With `{"until": "idle"}` (contract §5.4) the clock steps from one due instant to the next (job ends, delivery attempts and retries) until nothing of the accounts on the sandbox clock is due, at most `max_seconds` (default a week); the answer adds `advanced_seconds`.',
    client: ['admin.clock.advance(s)', "admin.clock.advance({ until: 'idle' })"],
    body: advanceClockSchema,
    answer: advanceAnswer,
    errors: [422],
    handler: (ctx, request) => moveSandboxClock(ctx, (clock) => clockAdvanceMove(request.body(), clock)),
  }),
];
