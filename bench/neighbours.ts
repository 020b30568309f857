/**
 * The "neighbours" section of `npm run bench` (`--only neighbours`): what one tenant's hostile load
 * does to another tenant. Each load runs against the built CLI (dist/cli.js) in a child process of
 * its own, on loopback. Beside it a separate process (bench/neighbour-probe.mjs) plays the other
 * tenant: `GET /v1/status` with its own key every 10 ms, open loop, first on the idle sandbox (the
 * baseline, same process, same run), then during the load. Reported per load: the neighbour's
 * p50/p99/max idle and under load, the sandbox's peak RSS (VmHWM), its CPU time, and the size and
 * time of every admin listing read afterwards, each next to the goal it must meet: RSS < 512 MiB,
 * every admin listing < 32 MiB, the neighbour's p99 < 50 ms.
 *
 * Loads (sizes times `--scale` / BENCH_SCALE, default 1, the full size):
 *   - 1 GB of 1 MB `PATCH /v1/email/inboxes/{id}` bodies: with the journal on (default size); with
 *     distinct `Idempotency-Key`s and `--journal-size 0`; with one webhook endpoint subscribed to
 *     `inbox.updated` (receiver answering 204); and two deliveries whose receiver answers 1 GiB
 *     streamed, then a 1 MB gzip body inflating to 1 GiB;
 *   - 10,000 crawls, then `POST /__admin/clock/advance {"seconds": 86400}`; 500 crawls of
 *     `max_pages: 100` on an account with its own frozen clock, then that clock advanced a day;
 *   - 3,000 accounts with running clocks, one webhook endpoint and one event each.
 * Every loop is bounded in count and in time (BENCH_PHASE_SECONDS, default 240 s per load) and ends
 * by itself; a sandbox that dies is reported as such and the next load starts a fresh one.
 * To look at one load: BENCH_LOADS=<regexp> runs only the loads whose name matches;
 * BENCH_SANDBOX_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the sandbox's node;
 * BENCH_PROBE_SAMPLES=<path prefix> writes the neighbour's raw samples (`[scheduled epoch ms,
 * latency ms, status]`) of each load to `<prefix>-<sandbox pid>.json`. bench/slow-windows.ts reads
 * a profile and those samples together: what the sandbox ran while the neighbour waited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  gzipBomb,
  hostilePatchBody,
  measureListing,
  peakRssBytes,
  pool,
  startHostileReceiver,
  type HostileReceiver,
  type Listing,
} from './hostile.js';
import { cpuMs, fmt, percentile } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = `${ROOT}dist/cli.js`;
const PROBE = `${ROOT}bench/neighbour-probe.mjs`;
const CLOCK = '2026-01-01T00:00:00Z';
const MiB = 2 ** 20;
/** The goals, from the rule that no tenant can stall or sink the others. */
export const GOALS = { rssBytes: 512 * MiB, listingBytes: 32 * MiB, p99Ms: 50 };
const PROBE_INTERVAL_MS = 10;
const IDLE_SECONDS = 2;
const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 240);

/** `--scale 0.1` or BENCH_SCALE=0.1: every load at a tenth of its size (quick looks); 1 is the full size. */
export function benchScale(argv = process.argv): number {
  const at = argv.indexOf('--scale');
  const raw = at >= 0 ? argv[at + 1] : process.env.BENCH_SCALE;
  const scale = raw === undefined ? 1 : Number(raw);
  if (!(scale > 0 && scale <= 10)) throw new Error(`--scale must be a number in (0, 10], got ${raw}`);
  return scale;
}

const now = (): number => performance.timeOrigin + performance.now();

interface Latency {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

interface Window {
  name: string;
  from: number;
  to: number;
  cpuMs: number;
}

export interface LoadResult {
  name: string;
  /** The neighbour's latency per window (idle first). */
  windows: Array<{ name: string; seconds: number; cpuSeconds: number; latency: Latency }>;
  peakRssBytes: number;
  listings: Listing[];
  notes: string[];
  /** Set when the sandbox's process ended during the load. */
  died?: string;
}

interface Sandbox {
  base: string;
  pid: number;
  child: ChildProcess;
  /** Why the process ended, once it has. */
  ended(): string | undefined;
  stop(): Promise<void>;
}

function startSandbox(extra: string[]): Promise<Sandbox> {
  const args = [CLI, '--port', '0', '--host', '127.0.0.1', '--rate-limit', 'off', '--clock', CLOCK, ...extra];
  const nodeArgs = process.env.BENCH_SANDBOX_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let listening = false;
  let stderrTail = '';
  let ended: string | undefined;
  child.stderr.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      const reason = /heap out of memory|Invalid string length|RangeError[^\n]*/.exec(stderrTail)?.[0];
      ended = `exit ${signal ?? code}${reason ? ` (${reason})` : ''}`;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line from ${args.join(' ')}`)), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      if (listening) return;
      stdout += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (!match?.[1]) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        base: match[1],
        pid: child.pid!,
        child,
        ended: () => ended,
        stop: async () => {
          if (ended === undefined) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(killer);
          }
        },
      });
    });
    void exited.then(() => reject(new Error(`${args.join(' ')} ended before listening: ${ended}: ${stderrTail}`)));
  });
}

async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function newAccount(base: string, body: Record<string, unknown> = { plan: 'paid' }): Promise<{ id: string; token: string }> {
  const made = await call<{ account: { id: string }; api_key: { token: string } }>(base, 'POST', '/__admin/accounts', body);
  return { id: made.account.id, token: made.api_key.token };
}

/** The neighbour: the probe process, and its samples once stopped. */
function startProbe(base: string, token: string): { stop(): Promise<Array<[number, number, number]>> } {
  const child = spawn(process.execPath, [PROBE, base, token, String(PROBE_INTERVAL_MS), String(PHASE_SECONDS * 2 + 300)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop: async () => {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
      return out.trim() ? (JSON.parse(out) as Array<[number, number, number]>) : [];
    },
  };
}

function latencyOf(samples: Array<[number, number, number]>, from: number, to: number): Latency {
  const inside = samples.filter(([at]) => at >= from && at < to);
  const sorted = inside.map(([, ms]) => ms).sort((a, b) => a - b);
  return {
    count: inside.length,
    failed: inside.filter(([, , status]) => status !== 200).length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

interface Context {
  sandbox: Sandbox;
  scale: number;
  deadline: number;
  /** Runs `work` as a named window of the neighbour's samples. */
  window<T>(name: string, work: () => Promise<T>): Promise<T>;
  note(line: string): void;
}

/** Admin listings read after each load: the dashboard's polls and the largest pages anyone may ask for. */
function listingsFor(hostileAccount: string): string[] {
  return [
    '/__admin/requests?limit=200',
    '/__admin/requests?limit=1000',
    '/__admin/webhook_deliveries?limit=50',
    '/__admin/webhook_deliveries?limit=1000',
    '/__admin/accounts?limit=100',
    `/__admin/accounts/${hostileAccount}`,
  ];
}

/**
 * One load: a fresh sandbox with `args`, the neighbour's idle baseline, `run` (which names its windows
 * and returns the hostile account whose state is listed), then every admin listing.
 */
async function runLoad(
  name: string,
  args: string[],
  scale: number,
  run: (ctx: Context) => Promise<string | undefined>,
): Promise<LoadResult> {
  const sandbox = await startSandbox(args);
  const neighbour = await newAccount(sandbox.base);
  const probe = startProbe(sandbox.base, neighbour.token);
  const windows: Window[] = [];
  const notes: string[] = [];
  const listings: Listing[] = [];
  let peak = 0;
  const sampler = setInterval(() => {
    const hwm = peakRssBytes(sandbox.pid);
    if (hwm > peak) peak = hwm;
  }, 50);
  const window = async <T>(windowName: string, work: () => Promise<T>): Promise<T> => {
    const from = now();
    const cpu = cpuMs(sandbox.pid);
    try {
      return await work();
    } finally {
      windows.push({ name: windowName, from, to: now(), cpuMs: cpuMs(sandbox.pid) - cpu });
    }
  };
  const ctx: Context = { sandbox, scale, deadline: now() + PHASE_SECONDS * 1000, window, note: (line) => notes.push(line) };
  try {
    // The probe's first requests open its connections: the baseline starts once they are warm.
    await sleep(300);
    await window('idle', () => sleep(IDLE_SECONDS * 1000));
    const hostile = await run(ctx);
    if (sandbox.ended() === undefined) {
      await window('admin listings', async () => {
        for (const path of listingsFor(hostile ?? 'acct_paid_default')) {
          listings.push(await measureListing(sandbox.base, path));
          if (sandbox.ended() !== undefined) break;
        }
      });
    }
  } catch (error) {
    notes.push(`stopped: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    clearInterval(sampler);
    const last = peakRssBytes(sandbox.pid);
    if (last > peak) peak = last;
  }
  const died = sandbox.ended();
  const samples = await probe.stop();
  if (process.env.BENCH_PROBE_SAMPLES) writeFileSync(`${process.env.BENCH_PROBE_SAMPLES}-${sandbox.pid}.json`, JSON.stringify(samples));
  await sandbox.stop();
  return {
    name,
    windows: windows.map((w) => ({
      name: w.name,
      seconds: (w.to - w.from) / 1000,
      cpuSeconds: w.cpuMs / 1000,
      latency: latencyOf(samples, w.from, w.to),
    })),
    peakRssBytes: peak,
    listings,
    notes,
    ...(died === undefined ? {} : { died }),
  };
}

/** `count` hostile PATCHes of ~1 MB from the paid default account, four in flight, stopping at the deadline. */
async function sendPatches(ctx: Context, count: number, options: { idempotencyKeys?: boolean } = {}): Promise<void> {
  const body = hostilePatchBody();
  let statuses = new Map<number, number>();
  let failed = 0;
  const started = now();
  const done = await pool(
    count,
    4,
    async (i) => {
      try {
        const res = await fetch(`${ctx.sandbox.base}/v1/email/inboxes/inbox_paid_support`, {
          method: 'PATCH',
          headers: {
            authorization: 'Bearer cc_test_paid_default_key',
            'content-type': 'application/json',
            ...(options.idempotencyKeys ? { 'idempotency-key': `hostile-${i}` } : {}),
          },
          body,
          signal: AbortSignal.timeout(60_000),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        failed += 1;
      }
    },
    () => now() > ctx.deadline || ctx.sandbox.ended() !== undefined,
  );
  statuses = new Map([...statuses].sort(([a], [b]) => a - b));
  ctx.note(
    `${done} of ${count} PATCHes of ${fmt(body.length / MiB, 2)} MiB (${fmt((done * body.length) / MiB)} MiB) in ${fmt((now() - started) / 1000, 1)} s; ` +
      `statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ') || 'none'}${failed ? `; ${failed} without an answer` : ''}`,
  );
}

async function endpointFor(ctx: Context, accountId: string, url: string, events?: string[]): Promise<void> {
  await call(ctx.sandbox.base, 'POST', '/__admin/webhook_endpoints', { account_id: accountId, url, ...(events ? { events } : {}) });
}

interface DeliveryView {
  status: string;
  attempts: Array<{ status_code: number | null; error: string | null; duration_ms: number }>;
}

/** Waits (bounded) until the account has `count` deliveries and the newest has an attempt; returns it. */
async function attempted(ctx: Context, accountId: string, count: number, limitMs = 90_000): Promise<DeliveryView | undefined> {
  const until = now() + limitMs;
  while (now() < until && ctx.sandbox.ended() === undefined) {
    try {
      const list = await call<{ data: DeliveryView[] }>(
        ctx.sandbox.base,
        'GET',
        `/__admin/webhook_deliveries?account_id=${accountId}&limit=${count}`,
      );
      const newest = list.data[0];
      if (list.data.length >= count && newest && newest.attempts.length > 0) return newest;
    } catch {
      // the sandbox is busy or gone: the loop's bound and `ended()` decide
    }
    await sleep(200);
  }
  return undefined;
}

const describeAttempt = (d: DeliveryView | undefined): string =>
  d
    ? `recorded ${d.status} (${d.attempts[0]!.status_code ?? d.attempts[0]!.error}) after ${fmt(d.attempts[0]!.duration_ms / 1000, 1)} s`
    : 'no attempt recorded';

async function receiverAnswers(ctx: Context, scale: number): Promise<string> {
  const inflated = Math.round(2 ** 30 * scale);
  const bomb = gzipBomb(inflated);
  const receiver: HostileReceiver = await startHostileReceiver((n) =>
    n === 0 ? { kind: 'stream', bytes: inflated } : { kind: 'gzip', body: bomb },
  );
  try {
    await endpointFor(ctx, 'acct_paid_default', receiver.url, ['inbox.updated']);
    const patch = (name: string) =>
      call(
        ctx.sandbox.base,
        'PATCH',
        '/v1/email/inboxes/inbox_paid_support',
        { display_name: name },
        { authorization: 'Bearer cc_test_paid_default_key' },
      );
    await ctx.window('streamed answer', async () => {
      await patch('Stream');
      const d = await attempted(ctx, 'acct_paid_default', 1);
      ctx.note(
        `receiver streaming ${fmt(inflated / MiB)} MiB: ${describeAttempt(d)}; the receiver wrote ${fmt(receiver.bytesSent / MiB)} MiB`,
      );
    });
    const sentBefore = receiver.bytesSent;
    await ctx.window('gzip bomb', async () => {
      await patch('Bomb');
      const d = await attempted(ctx, 'acct_paid_default', 2);
      ctx.note(
        `gzip answer of ${fmt(bomb.length / MiB, 2)} MiB inflating to ${fmt(Math.ceil(inflated / (16 * MiB)) * 16)} MiB: ${describeAttempt(d)}; the receiver wrote ${fmt((receiver.bytesSent - sentBefore) / MiB, 2)} MiB`,
      );
    });
  } finally {
    await receiver.close();
  }
  return 'acct_paid_default';
}

/** Creates `count` crawls (`max_pages` given or the default) for the accounts' keys, 8 in flight. */
async function crawls(ctx: Context, tokens: string[], count: number, perAccount: number, maxPages?: number): Promise<void> {
  const started = now();
  let refused = 0;
  const done = await pool(
    count,
    8,
    async (i) => {
      const res = await fetch(`${ctx.sandbox.base}/v1/web/crawl`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[Math.floor(i / perAccount)]!}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `https://site-${i}.example.com/`, ...(maxPages ? { max_pages: maxPages } : {}) }),
        signal: AbortSignal.timeout(60_000),
      });
      await res.arrayBuffer();
      if (res.status !== 201) refused += 1;
    },
    () => now() > ctx.deadline || ctx.sandbox.ended() !== undefined,
  );
  ctx.note(
    `${done - refused} of ${count} crawls${maxPages ? ` of max_pages ${maxPages}` : ''} created in ${fmt((now() - started) / 1000, 1)} s${refused ? ` (${refused} refused)` : ''}`,
  );
}

async function advance(ctx: Context, path: string, what: string): Promise<void> {
  const started = now();
  await ctx.window('advance', () => call(ctx.sandbox.base, 'POST', path, { seconds: 86_400 }));
  ctx.note(`${what} answered in ${fmt((now() - started) / 1000, 2)} s`);
}

async function runningClocks(ctx: Context, count: number): Promise<string> {
  const receiver = await startHostileReceiver(() => ({ kind: 'status', status: 204 }));
  let first = '';
  try {
    const started = now();
    const made = await ctx.window('creating accounts', () =>
      pool(
        count,
        4,
        async (i) => {
          const { id } = await newAccount(ctx.sandbox.base, { plan: 'free', clock: 'running' });
          if (i === 0) first = id;
          await endpointFor(ctx, id, receiver.url);
          await call(ctx.sandbox.base, 'POST', '/__admin/events', { account_id: id, type: 'customer.created' });
        },
        () => now() > ctx.deadline || ctx.sandbox.ended() !== undefined,
      ),
    );
    ctx.note(
      `${made} of ${count} running-clock accounts, each with one endpoint and one event, made in ${fmt((now() - started) / 1000, 1)} s; ${receiver.received} deliveries received meanwhile`,
    );
    await ctx.window('idle with them', () => sleep(5_000));
    ctx.note(`${receiver.received} deliveries received in all`);
  } finally {
    await receiver.close();
  }
  return first;
}

/** Every load of the section, at `scale`. */
export async function neighbourLoads(scale: number, report: (result: LoadResult) => void = () => {}): Promise<LoadResult[]> {
  const patches = Math.max(1, Math.round(1000 * scale));
  const loads: Array<[string, string[], (ctx: Context) => Promise<string | undefined>]> = [
    [
      `${patches} × 1 MB PATCH, journal on (default size)`,
      [],
      async (ctx) => (await ctx.window('load', () => sendPatches(ctx, patches)), 'acct_paid_default'),
    ],
    [
      `${patches} × 1 MB PATCH, distinct Idempotency-Keys, --journal-size 0`,
      ['--journal-size', '0'],
      async (ctx) => (await ctx.window('load', () => sendPatches(ctx, patches, { idempotencyKeys: true })), 'acct_paid_default'),
    ],
    [
      `${patches} × 1 MB PATCH, one endpoint subscribed to inbox.updated (204)`,
      [],
      async (ctx) => {
        const receiver = await startHostileReceiver(() => ({ kind: 'status', status: 204 }));
        try {
          await endpointFor(ctx, 'acct_paid_default', receiver.url, ['inbox.updated']);
          await ctx.window('load', () => sendPatches(ctx, patches));
          ctx.note(`${receiver.received} deliveries received`);
        } finally {
          await receiver.close();
        }
        return 'acct_paid_default';
      },
    ],
    [`receiver answers ${fmt(1024 * scale)} MiB streamed, then a gzip bomb of as much`, [], (ctx) => receiverAnswers(ctx, scale)],
    [
      `${Math.round(10_000 * scale)} due crawls, sandbox clock advanced a day`,
      [],
      async (ctx) => {
        const count = Math.round(10_000 * scale);
        // 5,000 crawls of the default 10 pages per paid account: 50,000 of its 100,000 credits.
        const accounts = await Promise.all(Array.from({ length: Math.ceil(count / 5_000) }, () => newAccount(ctx.sandbox.base)));
        await ctx.window('creating crawls', () =>
          crawls(
            ctx,
            accounts.map((a) => a.token),
            count,
            5_000,
          ),
        );
        await advance(ctx, '/__admin/clock/advance', 'the advance');
        return accounts[0]!.id;
      },
    ],
    [
      `${Math.round(500 * scale)} crawls of max_pages 100, own frozen clock advanced a day`,
      [],
      async (ctx) => {
        const count = Math.round(500 * scale);
        const account = await newAccount(ctx.sandbox.base, { plan: 'paid', clock: 'frozen' });
        await ctx.window('creating crawls', () => crawls(ctx, [account.token], count, count, 100));
        await advance(ctx, `/__admin/accounts/${account.id}/clock/advance`, "the account's advance");
        return account.id;
      },
    ],
    [`${Math.round(3_000 * scale)} running-clock accounts with webhooks`, [], (ctx) => runningClocks(ctx, Math.round(3_000 * scale))],
  ];
  const results: LoadResult[] = [];
  const only = process.env.BENCH_LOADS === undefined ? undefined : new RegExp(process.env.BENCH_LOADS, 'i');
  for (const [name, args, run] of loads) {
    if (only && !only.test(name)) continue;
    const result = await runLoad(name, args, scale, run);
    results.push(result);
    report(result);
  }
  return results;
}

const yesNo = (ok: boolean, measured: number): string => (Number.isNaN(measured) ? 'n/a' : ok ? 'yes' : '**no**');

/** The worst figures of a run, for the targets table. */
export interface NeighboursSummary {
  peakRssMiB: number;
  largestListingMiB: number;
  worstP99: number;
  idleP99: number;
  died: number;
  /** Admin listings that got no answer (the process died, or a timeout). */
  unansweredListings: number;
}

/** Runs the section and prints it through `out` (Markdown, the style of BENCHMARKS.md). */
export async function neighbours(out: (line?: string) => void, scale = benchScale()): Promise<NeighboursSummary> {
  out("## Neighbours: one tenant's hostile load against another tenant's latency");
  out();
  out(
    `Each load runs against the built CLI (\`dist/cli.js\`, \`--rate-limit off\`, frozen sandbox clock) in a process of its own, on loopback; a fresh sandbox per load. ` +
      `Another tenant (its own account and key, a separate process: \`bench/neighbour-probe.mjs\`) sends \`GET /v1/status\` every ${PROBE_INTERVAL_MS} ms, open loop, timed from each request's scheduled instant: ` +
      `first ${IDLE_SECONDS} s on the idle sandbox (the baseline, same run), then during each window of the load. Peak RSS is the sandbox process's VmHWM. ` +
      `Admin listings are read after the load, their bytes counted as they stream. Scale ${scale}${scale === 1 ? ' (the full size)' : ` (\`--scale ${scale}\`; the full size is 1)`}; every load stops by itself within ${PHASE_SECONDS} s.`,
  );
  out();
  out(
    `Goals: peak RSS < ${GOALS.rssBytes / MiB} MiB, every admin listing < ${GOALS.listingBytes / MiB} MiB, the neighbour's p99 < ${GOALS.p99Ms} ms under every load.`,
  );
  out();
  const summary: NeighboursSummary = { peakRssMiB: 0, largestListingMiB: 0, worstP99: 0, idleP99: 0, died: 0, unansweredListings: 0 };
  const lat = (l: Latency) =>
    `${fmt(l.p50, 1)} / ${fmt(l.p99, 1)} / ${fmt(l.max, 0)}${l.failed ? ` (${l.failed} of ${l.count} unanswered)` : ''}`;
  const results = await neighbourLoads(scale, (r) => {
    const rss = r.peakRssBytes / MiB;
    summary.peakRssMiB = Math.max(summary.peakRssMiB, rss);
    if (r.died) summary.died += 1;
    out(`### ${r.name}`);
    out();
    out(
      `Peak RSS ${fmt(rss, 0)} MiB (< ${GOALS.rssBytes / MiB}: ${yesNo(r.peakRssBytes < GOALS.rssBytes && !r.died, rss)})${r.died ? `; **the sandbox died: ${r.died}**` : ''}.`,
    );
    out();
    out('| window | seconds | sandbox CPU s | neighbour requests | neighbour p50 / p99 / max ms | p99 < 50 ms |');
    out('|---|---|---|---|---|---|');
    for (const w of r.windows) {
      // Unanswered requests count at the time they waited (the probe's record), so p99 covers them.
      const worst = w.latency.p99;
      if (w.name === 'idle') summary.idleP99 = Math.max(summary.idleP99, w.latency.p99);
      else summary.worstP99 = Math.max(summary.worstP99, worst);
      out(
        `| ${w.name} | ${fmt(w.seconds, 1)} | ${fmt(w.cpuSeconds, 1)} | ${w.latency.count} | ${lat(w.latency)} | ${w.name === 'idle' ? '(baseline)' : yesNo(worst < GOALS.p99Ms, w.latency.p99)} |`,
      );
    }
    out();
    if (r.listings.length > 0) {
      out('| admin listing | status | size MiB | ms | < 32 MiB |');
      out('|---|---|---|---|---|');
      for (const l of r.listings) {
        if (l.error) summary.unansweredListings += 1;
        summary.largestListingMiB = Math.max(summary.largestListingMiB, l.bytes / MiB);
        out(
          `| \`GET ${l.path}\` | ${l.error ? `no answer: ${l.error.slice(0, 80)}` : l.status} | ${fmt(l.bytes / MiB, 2)} | ${fmt(l.ms, 0)} | ${l.error ? '**no**' : yesNo(l.bytes < GOALS.listingBytes, l.bytes)} |`,
        );
      }
      out();
    }
    for (const note of r.notes) out(`- ${note}`);
    if (r.notes.length > 0) out();
  });
  out(
    `Over the ${results.length} loads: highest peak RSS ${fmt(summary.peakRssMiB, 0)} MiB, largest admin listing ${fmt(summary.largestListingMiB, 2)} MiB, ` +
      `the neighbour's worst p99 under load ${fmt(summary.worstP99, 1)} ms (idle baseline p99 at most ${fmt(summary.idleP99, 1)} ms)${summary.died ? `, ${summary.died} sandbox(es) died` : ''}${summary.unansweredListings ? `, ${summary.unansweredListings} admin listing(s) unanswered` : ''}.`,
  );
  out();
  return summary;
}
