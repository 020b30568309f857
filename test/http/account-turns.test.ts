/**
 * Bounded work per turn across tenants: an account's requests enter their operations one per turn
 * of the event loop, in the order they arrived, while another account's request enters in the turn
 * it comes (src/http/account-turns.ts). Held as the order requests enter, turn by turn: a
 * setImmediate chain marks the turns. No timings.
 */
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { SandboxContext } from '../../src/http/context.js';
import { ADMITTED_PER_TURN, AccountTurns } from '../../src/http/account-turns.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';
import { newTenant } from '../support/resources.js';
import { byTurn, markTurns } from '../support/turns.js';

function ctxOf(store: object): SandboxContext {
  return { state: { store } } as unknown as SandboxContext;
}

/** Runs `enter` for each request (`[account, name, light]`) in one go, logging names as they enter, with `|` between turns. */
async function enterAll(requests: Array<[object, string, boolean?]>): Promise<string[]> {
  const turns = new AccountTurns();
  const log: string[] = [];
  const stop = markTurns(log);
  await Promise.all(
    requests.map(([account, name, light]) =>
      turns.step(light ?? false)(ctxOf(account), () => {
        log.push(name);
        return Promise.resolve();
      }),
    ),
  );
  stop();
  expect(turns.waitingCount).toBe(0);
  return byTurn(log);
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

  it('a pass admits at most ADMITTED_PER_TURN waiting requests, the other accounts in the next turns, round-robin', async () => {
    const accounts = Array.from({ length: 2 * ADMITTED_PER_TURN + 3 }, () => ({}));
    const requests = accounts.flatMap((account, i): Array<[object, string]> => [
      [account, `first${i}`],
      [account, `second${i}`],
    ]);
    const turns = await enterAll(requests);
    // The first turn: every account's first request, which waited for nothing; then the seconds, a pass at a time.
    expect(turns[0]!.split(' ')).toHaveLength(accounts.length);
    const passes = turns.slice(1).map((turn) => turn.split(' '));
    for (const pass of passes) expect(pass.length).toBeLessThanOrEqual(ADMITTED_PER_TURN);
    expect(passes.flat()).toEqual(accounts.map((_, i) => `second${i}`));
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

describe('in the app', () => {
  it("another tenant's request read in the same poll as sixteen of a busy account's is answered after at most one of them", async () => {
    const app = makeApp({ rateLimit: 'off' });
    const other = await newTenant(app);
    // Both accounts' records derived first: what is measured is the operations, not a first derivation.
    for (const token of [KEYS.paid, other.token]) expect((await client(app).get('/v1/experiences').set(bearer(token))).status).toBe(200);
    const answered: string[] = [];
    const listener = app.callback();
    const server = createServer((req, res) => {
      res.once('finish', () => answered.push(req.headers.authorization === `Bearer ${KEYS.paid}` ? 'A' : 'B'));
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const open = (): Promise<Socket> =>
        new Promise((resolve) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.resume();
        });
      const sockets = await Promise.all(Array.from({ length: 17 }, open));
      // Every connection accepted and read from before the requests are written.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const request = (path: string, token: string) => `GET ${path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${token}\r\n\r\n`;
      // All written in this turn: the server reads them in its next poll, together.
      sockets.slice(0, 16).forEach((socket) => socket.write(request('/v1/experiences', KEYS.paid)));
      sockets[16]!.write(request('/v1/status', other.token));
      // Held here until every request is in the kernel's buffers (loopback delivers at once; this
      // only makes sure), so that no poll of the server sees some of them and not the others.
      const written = Date.now();
      while (Date.now() - written < 20);
      for (let turn = 0; turn < 10_000 && answered.length < 17; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(answered).toHaveLength(17);
      expect(answered.indexOf('B')).toBeLessThanOrEqual(1);
      for (const socket of sockets) socket.destroy();
    } finally {
      server.close();
    }
  });
});
