/**
 * The cost of findings (docs/findings.md): the same requests through two apps side by side, findings
 * on (the default) and off (`findingsBudget: 0`), over in-memory sockets, in short blocks that run both back to back
 * (bench/paired.ts) so both meet the same machine load. The "findings" section of `npm run bench` (`--only findings`):
 * requests per second of each and their ratio, per request. Alone, for a quick look:
 *
 *   node --import tsx bench/findings.ts [blocks]
 */
import type { RequestListener } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createApp } from '../src/app.js';
import { sendInMemory, type InMemoryRequest } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';
import { paired } from './paired.js';

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

export interface FindingsCost {
  /** Per request: requests per CPU-second with findings off and on, and on/off with its interquartile range. */
  cases: Array<{ name: string; off: number; on: number; ratio: number; low: number; high: number }>;
  /** The lowest on/off of the three. */
  worst: number;
}

/** Findings on vs off, side by side (bench/paired.ts); writes its section through `out`. */
export async function findingsCost(out: (line?: string) => void, blocks = 300): Promise<FindingsCost> {
  const cases: FindingsCost['cases'] = [];
  for (const { name, request } of CASES) {
    // Fresh apps per case: POST /v1/auth/keys grows the account's keys alike in both.
    const on = app(true);
    const off = app(false);
    const result = await paired({ on: () => sendInMemory(on, request()), off: () => sendInMemory(off, request()) }, { blocks });
    const ratio = result.ratio('on', 'off');
    cases.push({
      name,
      off: 1e6 / result.variants.off!.cpuUsPerCall,
      on: 1e6 / result.variants.on!.cpuUsPerCall,
      ratio: ratio.median,
      low: ratio.low,
      high: ratio.high,
    });
  }
  out('## Findings on vs off');
  out();
  out(
    `In process (in-memory sockets), ${blocks} blocks of about 10 ms each per variant, findings on and off back to back within each block (bench/paired.ts); throughput is requests per CPU-second of the process, the ratio the median of the blocks' ratios with their interquartile range. Findings off is \`findingsBudget: 0\` (docs/findings.md).`,
  );
  out();
  out('| request | findings off (req/CPU-s) | findings on (req/CPU-s) | on / off (IQR) |');
  out('|---|---|---|---|');
  for (const c of cases)
    out(`| ${c.name} | ${c.off.toFixed(0)} | ${c.on.toFixed(0)} | ${c.ratio.toFixed(3)} (${c.low.toFixed(3)}–${c.high.toFixed(3)}) |`);
  out();
  return { cases, worst: Math.min(...cases.map((c) => c.ratio)) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await findingsCost((line = '') => console.log(line), Number(process.argv[2] ?? 300));
}
