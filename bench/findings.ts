/**
 * The cost of findings (docs/findings.md): the same requests through two apps side by side, findings
 * on (the default) and off (`findingsBudget: 0`), over in-memory sockets, in alternating rounds so
 * both meet the same machine load. The "findings" section of `npm run bench` (`--only findings`):
 * requests per second of each and their ratio, per request. Alone, for a quick look:
 *
 *   node --import tsx bench/findings.ts [requests-per-round] [rounds]
 */
import type { RequestListener } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createApp } from '../src/app.js';
import { sendInMemory, type InMemoryRequest } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';
import { median } from './lib.js';

const PAID = { authorization: 'Bearer cc_test_paid_default_key' };

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

async function round(handler: RequestListener, request: () => InMemoryRequest, perRound: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i += 1) await sendInMemory(handler, request());
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return perRound / seconds;
}

export interface FindingsCost {
  /** Per request: median req/s with findings off and on, and on/off. */
  cases: Array<{ name: string; off: number; on: number; ratio: number }>;
  /** The lowest on/off of the three. */
  worst: number;
}

/** Findings on vs off, side by side; writes its section through `out`. */
export async function findingsCost(out: (line?: string) => void, perRound = 2000, rounds = 7): Promise<FindingsCost> {
  const cases: FindingsCost['cases'] = [];
  for (const { name, request } of CASES) {
    // Fresh apps per case: POST /v1/auth/keys grows the account's keys alike in both.
    const on = app(true);
    const off = app(false);
    await round(on, request, perRound);
    await round(off, request, perRound);
    const rates = { on: [] as number[], off: [] as number[] };
    for (let r = 0; r < rounds; r += 1) {
      // Alternating which goes first, so neither always meets a warmer or busier machine.
      if (r % 2 === 0) {
        rates.off.push(await round(off, request, perRound));
        rates.on.push(await round(on, request, perRound));
      } else {
        rates.on.push(await round(on, request, perRound));
        rates.off.push(await round(off, request, perRound));
      }
    }
    const onRate = median(rates.on);
    const offRate = median(rates.off);
    cases.push({ name, off: offRate, on: onRate, ratio: onRate / offRate });
  }
  out('## Findings on vs off');
  out();
  out(
    `In process (in-memory sockets), ${rounds} alternating rounds of ${perRound} requests, medians; findings off is \`findingsBudget: 0\` (docs/findings.md).`,
  );
  out();
  out('| request | findings off (req/s) | findings on (req/s) | on / off |');
  out('|---|---|---|---|');
  for (const c of cases) out(`| ${c.name} | ${c.off.toFixed(0)} | ${c.on.toFixed(0)} | ${c.ratio.toFixed(3)} |`);
  out();
  return { cases, worst: Math.min(...cases.map((c) => c.ratio)) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await findingsCost((line = '') => console.log(line), Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 7));
}
