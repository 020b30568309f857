/**
 * The account lanes of pure work run in slices (src/operations/account-slices.ts): each turn of the
 * event loop, each account with work (up to SLICES_PER_TURN of them) runs one slice (STEPS_PER_SLICE steps) of its oldest task,
 * which then goes to the back of its lane. Held as the order steps run in, turn by turn.
 */
import { describe, expect, it } from 'vitest';
import { busyLanes, inSlices, SLICES_PER_TURN, STEPS_PER_SLICE } from '../../src/operations/account-slices.js';
import { byTurn, markTurns } from '../support/turns.js';

/** A task of `steps` steps that logs `name` at each and returns it. */
function* task(log: string[], name: string, steps: number): Generator<void, string, void> {
  for (let i = 0; i < steps; i++) {
    log.push(name);
    yield;
  }
  return name;
}

describe('account lanes of sliced work', () => {
  it("runs one slice per account per turn: an account's several tasks take turns, another account's run beside them", async () => {
    const log: string[] = [];
    const steps = 2 * STEPS_PER_SLICE;
    const [acctA, acctB] = [{ id: 'acct_a' }, { id: 'acct_b' }];
    const done = Promise.all([
      inSlices(acctA, task(log, 'a1', steps)),
      inSlices(acctA, task(log, 'a2', steps)),
      inSlices(acctB, task(log, 'b1', steps)),
    ]);
    const stop = markTurns(log);
    expect(await done).toEqual(['a1', 'a2', 'b1']);
    stop();
    const slice = (name: string) => Array.from({ length: STEPS_PER_SLICE }, () => name).join(' ');
    // Each turn: one slice of acct_a's oldest task, one of acct_b's; acct_a's tasks alternate.
    expect(byTurn(log).slice(0, 4)).toEqual([`${slice('a1')} ${slice('b1')}`, `${slice('a2')} ${slice('b1')}`, slice('a1'), slice('a2')]);
    expect(busyLanes()).toBe(0);
  });

  it("keys a lane by the account's store, not its id: another sandbox's account of the same id runs beside it", async () => {
    const log: string[] = [];
    const [mine, theirs] = [{ id: 'acct_paid_default' }, { id: 'acct_paid_default' }];
    const done = Promise.all([inSlices(mine, task(log, 'm', STEPS_PER_SLICE)), inSlices(theirs, task(log, 't', STEPS_PER_SLICE))]);
    setImmediate(() => log.push('|'));
    await done;
    // Both slices ran in the first turn: two lanes, not one.
    expect(log.indexOf('|')).toBe(2 * STEPS_PER_SLICE);
  });

  it('runs at most SLICES_PER_TURN slices in one turn however many accounts wait, the others in the next turns, each in its order', async () => {
    const log: string[] = [];
    const accounts = Array.from({ length: 2 * SLICES_PER_TURN + 3 }, (_, i) => ({ id: `acct_${i}` }));
    const done = Promise.all(accounts.map((account, i) => inSlices(account, task(log, `t${i}`, 2 * STEPS_PER_SLICE))));
    const stop = markTurns(log);
    await done;
    stop();
    const turns = byTurn(log);
    for (const turn of turns) expect(turn.split(' ').length).toBeLessThanOrEqual(SLICES_PER_TURN * STEPS_PER_SLICE);
    // Every account got its first slice before any got its second: round-robin across turns.
    const firstSecond = log.filter((entry) => entry !== '|');
    const secondStarts = accounts.map((_, i) => firstSecond.indexOf(`t${i}`, firstSecond.indexOf(`t${i}`) + STEPS_PER_SLICE));
    const firstEnds = accounts.map((_, i) => firstSecond.indexOf(`t${i}`) + STEPS_PER_SLICE - 1);
    expect(Math.min(...secondStarts)).toBeGreaterThan(Math.max(...firstEnds));
    expect(busyLanes()).toBe(0);
  });

  it('rejects with what a step threw, and the lane goes on with the next task', async () => {
    function* failing(): Generator<void, never, void> {
      yield;
      throw new Error('broken step');
    }
    const acctC = { id: 'acct_c' };
    const failed = inSlices(acctC, failing());
    const next = inSlices(acctC, task([], 'after', 3));
    await expect(failed).rejects.toThrow('broken step');
    expect(await next).toBe('after');
    expect(busyLanes()).toBe(0);
  });
});
