/**
 * The cost of findings (docs/findings.md): the same requests through two apps side by side, findings
 * on (the default) and off (`findingsBudget: 0`), over in-memory sockets, in alternating rounds so
 * both meet the same machine load. Prints requests per second of each and their ratio, per request.
 *
 *   node --import tsx bench/findings.ts [requests-per-round] [rounds]
 */
import type { RequestListener } from 'node:http';
import { createApp } from '../src/app.js';
import { sendInMemory, type InMemoryRequest } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';
import { median } from './lib.js';

const PAID = { authorization: 'Bearer cc_test_paid_default_key' };
const perRound = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 7);

const CASES: Array<{ name: string; request: () => InMemoryRequest }> = [
  { name: 'GET /v1/status', request: () => ({ path: '/v1/status', headers: PAID }) },
  { name: 'GET /v1/experiences', request: () => ({ path: '/v1/experiences', headers: PAID }) },
  {
    name: 'POST /v1/auth/keys',
    request: () => ({
      method: 'POST',
      path: '/v1/auth/keys',
      headers: { ...PAID, 'content-type': 'application/json' },
      body: '{"name":"bench"}',
    }),
  },
];

function app(findings: boolean): RequestListener {
  return listenerOf(createApp({ rateLimit: 'off', clock: '2026-01-01T00:00:00Z', ...(findings ? {} : { findingsBudget: 0 }) }));
}

async function round(handler: RequestListener, request: () => InMemoryRequest): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i += 1) await sendInMemory(handler, request());
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return perRound / seconds;
}

for (const { name, request } of CASES) {
  // Fresh apps per case: POST /v1/auth/keys grows the account's keys alike in both.
  const on = app(true);
  const off = app(false);
  await round(on, request);
  await round(off, request);
  const rates = { on: [] as number[], off: [] as number[] };
  for (let r = 0; r < rounds; r += 1) {
    // Alternating which goes first, so neither always meets a warmer or busier machine.
    if (r % 2 === 0) {
      rates.off.push(await round(off, request));
      rates.on.push(await round(on, request));
    } else {
      rates.on.push(await round(on, request));
      rates.off.push(await round(off, request));
    }
  }
  const on$ = median(rates.on);
  const off$ = median(rates.off);
  console.log(
    `${name.padEnd(22)} findings off ${off$.toFixed(0).padStart(6)} req/s   on ${on$.toFixed(0).padStart(6)} req/s   on/off ${(on$ / off$).toFixed(3)}`,
  );
}
