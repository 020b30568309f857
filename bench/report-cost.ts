/**
 * What coverage counters and journal headers cost (contract §5.2, §5.3): GET /v1/status throughput
 * in process, side by side, three apps built from the same seed and fixture:
 *   base      the sandbox before coverage and journal headers (the tree of `--base <commit>`,
 *             default the commit before them), read from git into a temporary folder;
 *   headers   this tree with journal headers only: the app made with WORLD_MODULES less
 *             `coverage` and `findings`, no setting needed;
 *   both      this tree with journal headers and coverage: WORLD_MODULES less `findings`.
 * Findings came after the base tree and listen to every request as coverage does: left in, their
 * cost would be counted as the headers' and coverage's (bench/findings.ts measures it on its own).
 * The apps run back to back in short blocks (bench/paired.ts) so that a machine whose load changes
 * affects each alike; throughput is requests per CPU-second, the ratios medians of the blocks'.
 * `coverage` is `both` over `headers`: what coverage alone costs in this tree.
 *   neither   this tree with neither: `headers` with its journal handed arrivals and outcomes
 *             whose headers were swapped for an empty list (the other two go through the same
 *             wrapper, which swaps nothing, so the wrapper's own cost is in all three). `npm run bench` runs it as its section
 * `report-cost` (bench/run.ts); `--json` prints the figures for it.
 *
 *   node --import tsx bench/report-cost.ts [--base <commit>] [--blocks 300] [--json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listenerOf } from './koa-listener.js';
import { paired } from './paired.js';

const NO_HEADERS: string[] = [];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    // The tree before coverage and journal headers came (the refactored code they were ported onto).
    base: { type: 'string', default: '000f81b' },
    json: { type: 'boolean', default: false },
    blocks: { type: 'string', default: '300' },
  },
});
const BLOCKS = Number(values.blocks);

class NullSocket extends Duplex {
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: unknown, done: () => void): void {
    done();
  }
}

/** The headers a typical client sends, as Node's parser would give them (rawHeaders too). */
const RAW = [
  'Host',
  '127.0.0.1:4010',
  'User-Agent',
  'bench-client/1.0',
  'Accept',
  'application/json',
  'Authorization',
  'Bearer cc_test_free_default_key',
];

function send(handler: RequestListener): Promise<number> {
  return new Promise((resolve) => {
    const socket = new NullSocket() as unknown as Socket;
    Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
    const req = new IncomingMessage(socket);
    req.method = 'GET';
    req.url = '/v1/status';
    req.rawHeaders = [...RAW];
    req.headers = {};
    for (let i = 0; i < RAW.length; i += 2) req.headers[RAW[i]!.toLowerCase()] = RAW[i + 1]!;
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.on('finish', () => resolve(res.statusCode));
    handler(req, res);
  });
}

interface AppLike {
  callback(): RequestListener;
}
type CreateApp = (options: Record<string, unknown>) => AppLike;

async function appsOf(baseDir: string): Promise<Record<string, RequestListener>> {
  const options = { clock: '2026-01-15T12:00:00Z', rateLimit: 'off' };
  const current = await import('../src/app.js');
  const { OPERATIONS } = await import('../src/resources/index.js');
  const { WORLD_MODULES } = await import('../src/sandbox/modules.js');
  const base = (await import(pathToFileURL(path.join(baseDir, 'src/app.ts')).href)) as { createApp: CreateApp };
  // The same app less world modules (nothing else changes): coverage off for `headers`; findings,
  // which the base tree did not have, off for both.
  const without = (...names: string[]) => WORLD_MODULES.filter((module) => !names.includes(module.name));
  // Every app of this tree has its journal's arrivals and outcomes handed through the same wrapper;
  // `neither`'s swaps their headers for an empty list (the same work in the others, changing nothing).
  const withJournalHeaders = (app: ReturnType<typeof current.createAppWithOperations>, keep: boolean) => {
    const journal = app.sandbox.world.journal;
    const arrive = journal.arrive.bind(journal);
    const finish = journal.finish.bind(journal);
    const request = keep ? {} : { headers: NO_HEADERS };
    const response = keep ? {} : { response_headers: NO_HEADERS };
    journal.arrive = (arrival) => arrive(Object.assign(arrival, request));
    journal.finish = (ticket, outcome) => finish(ticket, Object.assign(outcome, response));
    return app;
  };
  const neither = withJournalHeaders(current.createAppWithOperations(options, OPERATIONS, without('coverage', 'findings')), false);
  const headersOnly = withJournalHeaders(current.createAppWithOperations(options, OPERATIONS, without('coverage', 'findings')), true);
  const headersAndCoverage = withJournalHeaders(current.createAppWithOperations(options, OPERATIONS, without('findings')), true);
  return {
    base: base.createApp(options).callback(),
    neither: listenerOf(neither),
    headers: listenerOf(headersOnly),
    both: listenerOf(headersAndCoverage),
  };
}

/** One batch of 32 requests in flight at a time, as a client pool would keep them. */
async function batch(handler: RequestListener): Promise<void> {
  const sent: Promise<number>[] = [];
  for (let i = 0; i < 32; i += 1) sent.push(send(handler));
  const statuses = await Promise.all(sent);
  if (statuses.some((status) => status !== 200)) throw new Error(`unexpected statuses ${statuses.join(',')}`);
}

const baseDir = mkdtempSync(path.join(tmpdir(), 'ccm-base-'));
try {
  // Through a file: the archive (fixtures included) is larger than execFileSync's output buffer.
  const archive = path.join(baseDir, 'base.tar');
  execFileSync('git', ['archive', '-o', archive, values.base, 'src', 'fixtures', 'scenarios', 'package.json', 'tsconfig.json'], {
    cwd: ROOT,
  });
  execFileSync('tar', ['-x', '-f', archive, '-C', baseDir]);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(baseDir, 'node_modules'), 'dir');
  const apps = await appsOf(baseDir);
  const result = await paired(Object.fromEntries(Object.entries(apps).map(([name, handler]) => [name, () => batch(handler)])), {
    blocks: BLOCKS,
  });
  // Requests per CPU-second of the process (32 per batch).
  const medians = Object.fromEntries(Object.entries(result.variants).map(([name, v]) => [name, (32 * 1e6) / v.cpuUsPerCall]));
  const ratios = {
    headers: result.ratio('headers', 'neither'),
    both: result.ratio('both', 'neither'),
    coverage: result.ratio('both', 'headers'),
    'both/base': result.ratio('both', 'base'),
  };
  if (values.json) {
    console.log(JSON.stringify({ base: values.base, blocks: BLOCKS, medians, ratios }));
    process.exit(0);
  }
  console.log(`GET /v1/status in process, ${BLOCKS} blocks (bench/paired.ts), base ${values.base}`);
  for (const [name, rate] of Object.entries(medians)) console.log(`${name.padEnd(8)} ${Math.round(rate).toString().padStart(7)} req/CPU-s`);
  for (const [name, r] of Object.entries(ratios))
    console.log(`${name.padEnd(8)} ${r.median.toFixed(3)}x (IQR ${r.low.toFixed(3)}–${r.high.toFixed(3)})`);
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
