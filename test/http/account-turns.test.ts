/**
 * Bounded work per turn across tenants: an account's requests enter their operations one per turn
 * of the event loop, in the order they arrived, while another account's request enters in the turn
 * it comes (src/http/account-turns.ts). Held as the order requests enter, turn by turn: a
 * setImmediate chain marks the turns. No timings.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxContext } from '../../src/http/context.js';
import { AccountTurns } from '../../src/http/account-turns.js';

function ctxOf(store: object): SandboxContext {
  return { state: { store } } as unknown as SandboxContext;
}

/** Runs `enter` for each request (`[account, name, light]`) in one go, logging names as they enter, with `|` between turns. */
async function enterAll(requests: Array<[object, string, boolean?]>): Promise<string[]> {
  const turns = new AccountTurns();
  const log: string[] = [];
  let ticking = true;
  const tick = (): void => {
    log.push('|');
    if (ticking) setImmediate(tick);
  };
  tick();
  await Promise.all(
    requests.map(([account, name, light]) =>
      turns.step(light ?? false)(ctxOf(account), () => {
        log.push(name);
        return Promise.resolve();
      }),
    ),
  );
  ticking = false;
  expect(turns.waitingCount).toBe(0);
  return log
    .join(' ')
    .split('|')
    .map((turn) => turn.trim())
    .filter(Boolean);
}

describe("an account's requests enter one per turn", () => {
  it('a busy account enters one request per turn, in arrival order; another account enters in the turn it comes', async () => {
    const [busy, other] = [{}, {}];
    const turns = await enterAll([
      [busy, 'b1'],
      [busy, 'b2'],
      [busy, 'b3'],
      [other, 'o1'],
    ]);
    expect(turns).toEqual(['b1 o1', 'b2', 'b3']);
  });

  it('light operations are not held back while their account has nothing waiting, and queue behind what waits', async () => {
    const account = {};
    // s1, s2 light and first: in at once; b1 enters; b2 waits; s3 (light) comes after b2, so waits behind it.
    const turns = await enterAll([
      [account, 's1', true],
      [account, 's2', true],
      [account, 'b1'],
      [account, 'b2'],
      [account, 's3', true],
    ]);
    expect(turns).toEqual(['s1 s2 b1', 'b2', 's3']);
  });

  it('several busy accounts: each turn admits the oldest waiting request of every account', async () => {
    const [a, b] = [{}, {}];
    const turns = await enterAll([
      [a, 'a1'],
      [a, 'a2'],
      [a, 'a3'],
      [b, 'b1'],
      [b, 'b2'],
    ]);
    expect(turns).toEqual(['a1 b1', 'a2 b2', 'a3']);
  });
});
