/**
 * The one due index across accounts (src/webhooks/due-accounts.ts): an account filed on another
 * clock leaves its old one, so no stale, past-due entry keeps the timer firing.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { DueAccounts } from '../../src/webhooks/due-accounts.js';

const T0 = Date.parse('2026-01-15T12:00:00Z');

describe('the due index across clocks', () => {
  it('an account moved to its own clock leaves the shared one: nothing stays due there', () => {
    let real = 1_000_000;
    const realTime = () => real;
    const shared = new VirtualClock(T0, 'running', realTime);
    const own = new VirtualClock(T0, 'frozen', realTime);
    const due = new DueAccounts<string>(realTime);
    due.put('acct_a', shared, T0 + 5_000);
    expect(due.nextRealAt()).toBe(real + 5_000);

    // The account gets a frozen clock of its own: the running clock has nothing due any more.
    due.put('acct_a', own, T0 + 5_000);
    expect(due.nextRealAt()).toBeUndefined();
    real += 10_000;
    expect(due.dueNow()).toEqual([]);
    expect(due.dueOn(shared, T0 + 60_000)).toEqual([]);
    expect(due.dueOn(own, T0 + 5_000)).toEqual(['acct_a']);

    due.remove('acct_a');
    expect(due.dueOn(own, T0 + 5_000)).toEqual([]);
    expect(due.nextRealAt()).toBeUndefined();
  });

  it('a timer tick returns every account due on a running clock, soonest first, however many', () => {
    let real = 0;
    const realTime = () => real;
    const shared = new VirtualClock(T0, 'running', realTime);
    const due = new DueAccounts<number>(realTime);
    const count = 150_000;
    for (let i = count - 1; i >= 0; i--) due.put(i, shared, T0 + i);
    real += count;
    const ticked = due.dueNow();
    expect(ticked.length).toBe(count);
    expect(ticked.slice(0, 3)).toEqual([0, 1, 2]);
  });
});
