/** Small helpers of the benchmark: child servers, load runs (wrk or autocannon), CPU and RSS, percentiles. */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// Rejects with execFile's error (exit code, signal, stderr); resolves with the output.
const execFileAsync = promisify(execFile);

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a process that prints `listening on <url>` and resolves when it does. */
export function startChild(command: string, args: string[], env: Record<string, string> = {}): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no listening line from ${args.join(' ')}: ${out}`)), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); NaN elsewhere. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), counted from the state field (3) here, in
    // clock ticks of USER_HZ, which is 100 on Linux.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Resident set size of a process in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  total: number;
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  connections: number;
}

/**
 * The load generator. wrk (C, from the OS's packages) when it is installed: it costs the machine a
 * fraction of what the servers under test cost per response, so they, not it, are the bottleneck.
 * autocannon (Node) otherwise: on 2 cores it saturates its own core first (bare Koa then sits ~30%
 * idle), so its ratios partly measure how much longer it takes to parse a bigger response.
 * `BENCH_DRIVER=autocannon` forces it.
 */
export type LoadDriver = 'wrk' | 'autocannon';

export function pickDriver(): LoadDriver {
  if (process.env.BENCH_DRIVER === 'autocannon') return 'autocannon';
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // `wrk --version` prints its banner and exits 1; only a missing binary is "not installed".
    return (error as { code?: string }).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
}

export function load(url: string, options: LoadOptions, driver: LoadDriver = 'autocannon'): Promise<LoadResult> {
  return driver === 'wrk' ? loadWithWrk(url, options) : loadWithAutocannon(url, options);
}

const WRK_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** wrk's report, read: requests, duration, non-2xx count, the 99th latency percentile (ms). */
export function parseWrk(text: string): LoadResult {
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(text);
  if (!done) throw new Error(`unexpected wrk output: ${text}`);
  const total = Number(done[1]);
  const seconds = (Number(done[2]) * WRK_UNITS[done[3]!]!) / 1000;
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  return {
    rps: total / seconds,
    p99: p99 ? Number(p99[1]) * WRK_UNITS[p99[2]!]! : NaN,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    total,
  };
}

let wrkScripts: string | undefined;

function loadWithWrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${Math.max(1, Math.round(options.seconds))}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if ((options.method ?? 'GET') !== 'GET' || options.body !== undefined) {
    if (wrkScripts === undefined) {
      const dir = (wrkScripts = mkdtempSync(join(tmpdir(), 'ccm-bench-')));
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    const script = join(
      wrkScripts,
      `${options.method ?? 'GET'}-${Buffer.from(options.body ?? '')
        .toString('hex')
        .slice(0, 32)}.lua`,
    );
    writeFileSync(script, `wrk.method = ${JSON.stringify(options.method ?? 'GET')}\nwrk.body = ${JSON.stringify(options.body ?? '')}\n`);
    args.push('-s', script);
  }
  args.push(url);
  return execFileAsync('wrk', args, { timeout: (options.seconds + 30) * 1000 }).then(({ stdout }) => parseWrk(stdout));
}

async function loadWithAutocannon(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    duration: options.seconds,
    connections: options.connections,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, total: result.requests.total };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

/**
 * The record budget of the apps a section fills with records by hand (100,000s of experiences or
 * jobs in one account): what is measured there is latency against size, not the budget's refusal.
 */
export const BENCH_RECORD_BUDGET = '16GiB';
