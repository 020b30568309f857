/**
 * The bodies of the clock calls, shared by the sandbox clock (contract §3.3) and the accounts' own
 * clocks (contract §4.1): the same fields, the same range checks, the same errors.
 */
import { isInClockRange, MAX_INSTANT, MAX_INSTANT_MS, MIN_INSTANT, parseInstant, type VirtualClock } from '../clock/virtual-clock.js';
import { ApiError, validationFailed } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { JsonSchema } from '../operations/types.js';
import type { AdvanceClockInput, SetClockInput } from './api-types.js';

export const setClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { mode: { enum: ['running', 'frozen'] }, now: { type: 'string', format: 'date-time' } },
};
/** The longest move one advance may ask for: ten years (`seconds`, `max_seconds`). */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;
/** `max_seconds` of `{"until": "idle"}` when left out: a week (contract §5.4). */
export const DEFAULT_IDLE_MAX_SECONDS = 604_800;

export const advanceClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Either `seconds`, or `until: "idle"` with an optional `max_seconds`.',
  // `seconds` XOR `until` (contract §5.4): which one is checked by `clockAdvanceMove`, naming the member
  // (a `oneOf` would answer ajv's words instead of the member at fault).
  properties: {
    seconds: { type: 'number', minimum: 0, maximum: MAX_ADVANCE_SECONDS },
    until: {
      enum: ['idle'],
      description: 'Instead of seconds: move to the instant at which nothing of the account (of every account on the clock) is still due.',
    },
    max_seconds: {
      type: 'number',
      minimum: 0,
      maximum: MAX_ADVANCE_SECONDS,
      description: `With until: the farthest the clock moves (default ${DEFAULT_IDLE_MAX_SECONDS}, a week).`,
    },
  },
};

/**
 * The instant a clock call asks for, refused (422, naming the field) outside the clock's range: past
 * it, every timestamp the sandbox writes would be one it cannot read back.
 */
export function clockTarget(clock: VirtualClock, body: { now?: string; seconds?: number }): number | undefined {
  if (body.now !== undefined) {
    const at = parseInstant(body.now);
    if (at === undefined || !isInClockRange(at)) throw validationFailed({ now: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] });
    return at;
  }
  if (body.seconds === undefined) return undefined;
  const now = clock.now();
  const at = now + body.seconds * 1000;
  if (!isInClockRange(at))
    throw validationFailed({ seconds: [MESSAGES.clockAdvancePast(MAX_INSTANT, Math.floor((MAX_INSTANT_MS - now) / 1000))] });
  return at;
}

/** What a clock call asks: one change of the clock, or to run it until nothing is due (contract §5.4). */
export type ClockMove = { change: ClockChange } | { untilIdle: { maxMs: number } };

/** The change `POST …/clock` `{"mode"?, "now"?}` asks of `clock` (checked against its range). */
export function clockSetChange(body: SetClockInput, clock: VirtualClock): ClockMove {
  const now = clockTarget(clock, body);
  return { change: { ...(body.mode ? { mode: body.mode } : {}), ...(now === undefined ? {} : { now }) } };
}

/**
 * What `POST …/clock/advance` asks of `clock`: `{"seconds"}`, or `{"until": "idle", "max_seconds"?}`.
 * Everything time-based is derived from the clock, so once a change is applied all that was due has
 * happened. The target is computed once: a running clock read again would be a little later.
 */
export function clockAdvanceMove(body: AdvanceClockInput, clock: VirtualClock): ClockMove {
  if (body.until === undefined) {
    if (body.max_seconds !== undefined) throw validationFailed({ max_seconds: ['goes with "until": "idle" only'] });
    if (body.seconds === undefined)
      throw new ApiError('parameter_missing', { param: 'seconds', message: MESSAGES.missingParameter('seconds') });
    return { change: { now: clockTarget(clock, body)! } };
  }
  if (body.seconds !== undefined) throw validationFailed({ until: ['give either seconds or until, not both'] });
  // Never past the clock's range: the last instant it can show is as far as "idle" can go.
  const maxMs = Math.min((body.max_seconds ?? DEFAULT_IDLE_MAX_SECONDS) * 1000, Math.max(0, MAX_INSTANT_MS - clock.now()));
  return { untilIdle: { maxMs } };
}

/** Where a clock's due work is: the webhook hub's view of the accounts following it. */
export interface ClockWork {
  /** The soonest virtual instant something is due (a job's end, a delivery's attempt); undefined when nothing is. */
  nextDue(): number | undefined;
  /** The clock moved: runs what is due by its now; resolves once it has happened. */
  moved(): Promise<void>;
  /** False once the clock's owner is gone (the account deleted): the run stops. */
  live?(): boolean;
}

/** Steps one idle run may take: each waits for the work due at its instant, so it only bounds a run fed by traffic. */
const MAX_IDLE_STEPS = 100_000;

/**
 * Applies a move; for `untilIdle`, returns the virtual milliseconds the clock was moved by. Until
 * idle moves the clock from one due instant to the next (a job's end raises its events, an attempt
 * that fails falls due again at its retry), awaiting the work due at each, until nothing is due or
 * `maxMs` is reached (it then stops there). Each step is an ordinary clock move, whose work runs in
 * slices that yield to the event loop (src/webhooks/work-slices.ts): bounded work per turn. On a
 * running clock the real time that passes meanwhile is not counted as moved.
 */
export async function applyClockMove(move: ClockMove, clock: VirtualClock, work: ClockWork): Promise<number | undefined> {
  if ('change' in move) {
    clock.set(move.change);
    await work.moved();
    return undefined;
  }
  const { maxMs } = move.untilIdle;
  let advanced = 0;
  for (let step = 0; step < MAX_IDLE_STEPS && (work.live?.() ?? true); step++) {
    let due = work.nextDue();
    if (due === undefined) {
      // Nothing waits in the index, but work of this instant may be under way (an attempt whose
      // receiver has not answered yet is out of it): once it is done, it may fall due again (a retry).
      await work.moved();
      due = work.nextDue();
    }
    if (due === undefined) break;
    const now = clock.now();
    const jump = Math.min(Math.max(0, due - now), maxMs - advanced);
    // At the limit with nothing due before it: nothing more to do.
    if (jump === 0 && due > now) break;
    if (jump > 0) clock.set({ now: now + jump });
    advanced += jump;
    await work.moved();
    // At the limit; or a step that moved nothing and left the same item due (nothing can progress).
    if (due - now > jump || (jump === 0 && work.nextDue() === due)) break;
  }
  return advanced;
}

/** The `advanced_seconds` an until-idle answer adds (contract §5.4); nothing for other moves. */
export function advancedMember(advancedMs: number | undefined): { advanced_seconds?: number } {
  return advancedMs === undefined ? {} : { advanced_seconds: advancedMs / 1000 };
}

export type ClockChange = Parameters<VirtualClock['set']>[0];
