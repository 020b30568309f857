/**
 * The bodies of the clock calls, shared by the sandbox clock (contract §3.3) and the accounts' own
 * clocks (contract §4.1): the same fields, the same range checks, the same errors.
 */
import { isInClockRange, MAX_INSTANT, MAX_INSTANT_MS, MIN_INSTANT, parseInstant, type VirtualClock } from '../clock/virtual-clock.js';
import { validationFailed } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { JsonSchema } from '../operations/types.js';
import type { SetClockInput } from './api-types.js';

export const setClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { mode: { enum: ['running', 'frozen'] }, now: { type: 'string', format: 'date-time' } },
};
export const advanceClockSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['seconds'],
  properties: { seconds: { type: 'number', minimum: 0, maximum: 10 * 365 * 24 * 3600 } },
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

/** The change `POST …/clock` `{"mode"?, "now"?}` asks of `clock` (checked against its range). */
export function clockSetChange(body: SetClockInput, clock: VirtualClock): ClockChange {
  const now = clockTarget(clock, body);
  return { ...(body.mode ? { mode: body.mode } : {}), ...(now === undefined ? {} : { now }) };
}

/**
 * The change `POST …/clock/advance` `{"seconds"}` asks of `clock`. Everything time-based is derived
 * from the clock, so once it is applied all that was due has happened. The target is computed once:
 * a running clock read again would be a little later.
 */
export function clockAdvanceChange(body: { seconds: number }, clock: VirtualClock): ClockChange {
  return { now: clockTarget(clock, body)! };
}

export type ClockChange = Parameters<VirtualClock['set']>[0];
