/** The Clock region (contract §3.3, §4.4): the sandbox clock, shown live; Freeze, Run and Advance move it. */
import { api } from './admin-session.js';
import type { ClockView } from './api-types.js';
import { byId } from './dom.js';
import { fieldsOf } from './forms.js';
import { describe, notify } from './notice.js';

export interface ClockController {
  refresh: () => Promise<void>;
  freeze: () => void;
  run: () => void;
  advance: (event: Event) => void;
}

function showClock(clock: ClockView): void {
  byId('clock-now').textContent = clock.now;
  byId('clock-mode').textContent = clock.mode;
}

/** `afterMove` shows in the other regions what the new time made happen. */
export function clockController(afterMove: () => Promise<unknown>): ClockController {
  const move = async (path: string, body: unknown) => {
    try {
      showClock(await api.call<ClockView>('POST', path, body));
      // Everything due by the new time has happened: the other regions show it at once.
      await afterMove();
    } catch (error) {
      notify(describe(error));
    }
  };
  return {
    refresh: async () => showClock(await api.call<ClockView>('GET', '/clock')),
    freeze: () => void move('/clock', { mode: 'frozen' }),
    run: () => void move('/clock', { mode: 'running' }),
    advance: (event) => void move('/clock/advance', { seconds: Number(fieldsOf(event).seconds) }),
  };
}
