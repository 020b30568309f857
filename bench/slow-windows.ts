/**
 * What the sandbox ran while the neighbour waited: the CPU samples of the sandbox's profile that fall
 * in the windows where the neighbour's requests (bench/neighbours.ts, BENCH_PROBE_SAMPLES) took at
 * least `slow ms`, summed by frame (self and inclusive), over all those windows and for the worst ones.
 *
 *   npm run build   # DIST_MINIFY=0 npm run build for readable names
 *   PROF_DIR=/tmp/p BENCH_LOADS=crawls BENCH_PROBE_SAMPLES=/tmp/p/samples \
 *     BENCH_SANDBOX_NODE_ARGS="--import ./bench/profile-clock.mjs --cpu-prof --cpu-prof-dir=/tmp/p" \
 *     node --import tsx bench/run.ts --only neighbours
 *   node --import tsx bench/slow-windows.ts /tmp/p/CPU.*.cpuprofile /tmp/p/clock-<pid>.json /tmp/p/samples-<pid>.json [slow ms=35] [windows=6]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
/** [from, to] in profile microseconds, the worst latency in ms, how many slow requests. */
type SlowWindow = [number, number, number, number];
interface Tally {
  count: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
}

const [profileFile, clockFile, samplesFile, slowArg = '35', windowsArg = '6'] = process.argv.slice(2);
if (!profileFile || !clockFile || !samplesFile)
  throw new Error('usage: slow-windows.ts <profile> <clock.json> <samples.json> [slow ms] [windows]');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const profile = readJson<Profile>(profileFile);
const clock = readJson<{ wall: number; mono: number }>(clockFile);
const samples = readJson<Array<[number, number, number]>>(samplesFile);
const toMono = (wallMs: number): number => clock.mono + (wallMs - clock.wall) * 1000;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const frame = (node: ProfileNode): string =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(src|dist|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
const times: number[] = [];
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) times.push((at += profile.timeDeltas[i] ?? 0));

const windows: SlowWindow[] = [];
for (const [scheduled, ms] of samples.filter(([, ms]) => ms >= Number(slowArg)).sort((a, b) => a[0] - b[0])) {
  const from = toMono(scheduled);
  const to = toMono(scheduled + ms);
  const last = windows.at(-1);
  if (last && from <= last[1]) {
    last[1] = Math.max(last[1], to);
    last[2] = Math.max(last[2], ms);
    last[3] += 1;
  } else windows.push([from, to, ms, 1]);
}

function tally(into: Tally, from: number, to: number): Tally {
  for (let i = 0; i < times.length; i++) {
    if (times[i]! < from || times[i]! > to) continue;
    into.count += 1;
    const stack: ProfileNode[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parentOf.get(id)) stack.push(byId.get(id)!);
    const top = frame(stack[0]!);
    into.self.set(top, (into.self.get(top) ?? 0) + 1);
    for (const name of new Set(stack.map(frame))) {
      if (/^\(|node:/.test(name) && !/node_modules/.test(name)) continue;
      into.inclusive.set(name, (into.inclusive.get(name) ?? 0) + 1);
    }
  }
  return into;
}
const empty = (): Tally => ({ count: 0, self: new Map(), inclusive: new Map() });
const show = (counts: Map<string, number>, total: number, rows: number): string =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([name, n]) => `   ${((100 * n) / total).toFixed(0).padStart(3)}% ${name}`)
    .join('\n');

const span = ((times.at(-1) ?? profile.startTime) - profile.startTime) / 1e6;
console.log(
  `${samples.length} neighbour requests, slow (≥ ${slowArg} ms) ones in ${windows.length} windows; the profile spans ${span.toFixed(1)} s`,
);
const all = empty();
for (const [from, to] of windows) tally(all, from, to);
console.log(
  `\n== every slow window (${all.count} samples)\n self:\n${show(all.self, all.count, 20)}\n inclusive:\n${show(all.inclusive, all.count, 30)}`,
);
for (const [from, to, worst, requests] of [...windows].sort((a, b) => b[2] - a[2]).slice(0, Number(windowsArg))) {
  const one = tally(empty(), from, to);
  console.log(
    `\n== at +${((from - profile.startTime) / 1e6).toFixed(2)} s, ${((to - from) / 1000).toFixed(0)} ms, worst ${worst.toFixed(0)} ms, ` +
      `${requests} requests, ${one.count} samples\n self:\n${show(one.self, one.count, 8)}\n inclusive:\n${show(one.inclusive, one.count, 16)}`,
  );
}
