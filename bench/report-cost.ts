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
 * Rounds alternate between the apps so that a machine whose load changes affects each alike; the
 * median of the rounds is reported with the ratio to base. `npm run bench` runs it as its section
 * `report-cost` (bench/run.ts); `--json` prints the figures for it.
 *
 *   node --import tsx bench/report-cost.ts [--base <commit>] [--rounds 7] [--requests 20000] [--json]
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

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    // The tree before coverage and journal headers came (the refactored code they were ported onto).
    base: { type: 'string', default: '000f81b' },
    json: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '7' },
    requests: { type: 'string', default: '20000' },
  },
});
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);

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
  const headersOnly = current.createAppWithOperations(options, OPERATIONS, without('coverage', 'findings'));
  const headersAndCoverage = current.createAppWithOperations(options, OPERATIONS, without('findings'));
  return { base: base.createApp(options).callback(), headers: listenerOf(headersOnly), both: listenerOf(headersAndCoverage) };
}

async function throughput(handler: RequestListener): Promise<number> {
  const started = performance.now();
  // 32 in flight at a time, as a client pool would keep them.
  for (let sent = 0; sent < REQUESTS; sent += 32) {
    const batch: Promise<number>[] = [];
    for (let i = 0; i < 32; i += 1) batch.push(send(handler));
    const statuses = await Promise.all(batch);
    if (statuses.some((status) => status !== 200)) throw new Error(`unexpected statuses ${statuses.join(',')}`);
  }
  return REQUESTS / ((performance.now() - started) / 1000);
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

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
  const results: Record<string, number[]> = { base: [], headers: [], both: [] };
  // One warm-up round each, not counted: the JIT and the first compiles.
  for (const handler of Object.values(apps)) await throughput(handler);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, handler] of Object.entries(apps)) results[name]!.push(await throughput(handler));
  }
  const baseline = median(results.base!);
  if (values.json) {
    const medians = Object.fromEntries(Object.entries(results).map(([name, list]) => [name, median(list)]));
    console.log(JSON.stringify({ base: values.base, requests: REQUESTS, rounds: ROUNDS, medians }));
    process.exit(0);
  }
  console.log(`GET /v1/status in process, ${REQUESTS} requests x ${ROUNDS} rounds (median), base ${values.base}`);
  for (const [name, list] of Object.entries(results)) {
    const m = median(list);
    console.log(`${name.padEnd(8)} ${Math.round(m).toString().padStart(7)} req/s  ${(m / baseline).toFixed(3)}x of base`);
  }
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
