/**
 * The `clock` of an account (contract §4.1): `shared` follows the sandbox clock; `frozen`,
 * `running` or an instant give the account a VirtualClock of its own, which only the account's
 * clock calls move. How it was asked for at creation is kept, so an account reset can put the clock
 * back: at its creation instant (frozen) or restarted from it (running).
 */
import { parseInstant, type ClockMode } from '../clock/virtual-clock.js';

// `string & {}`: any ISO instant, while editors still offer the three names.
export type AccountClockSetting = 'shared' | 'frozen' | 'running' | (string & {});

/** What the account's clock was at creation; `undefined` mode = shared. */
export interface ClockBirth {
  mode: ClockMode | undefined;
  /** Virtual ms the own clock started at (the sandbox clock's instant, or the instant given). */
  start: number;
}

/** Reads the `clock` field of `POST /__admin/accounts`; `undefined` when it is not one of the forms. */
export function clockBirth(setting: AccountClockSetting | undefined, sharedNow: number): ClockBirth | undefined {
  if (setting === undefined || setting === 'shared') return { mode: undefined, start: sharedNow };
  if (setting === 'frozen' || setting === 'running') return { mode: setting === 'frozen' ? 'frozen' : 'running', start: sharedNow };
  const at = parseInstant(setting);
  return at === undefined ? undefined : { mode: 'frozen', start: at };
}

/** `"clock"` of the account object in every admin answer. */
export interface AccountClockView {
  now: string;
  mode: ClockMode;
  shared: boolean;
}
