/**
 * The neighbour of bench/neighbours.ts, in a process of its own so that the harness's work (sending
 * megabyte bodies, counting the bytes of admin listings) never delays its clock: sends
 * `GET /v1/status` with its own key every `interval` ms, open loop (each request leaves at its
 * scheduled instant whether or not the previous ones were answered, so a stalled server is charged
 * for every request it kept waiting), and times each answer from its scheduled instant.
 *
 *   node bench/neighbour-probe.mjs <url> <token> <interval ms> <max seconds>
 *
 * When its stdin closes (or after max seconds) it sends no more, waits up to 10 s for the answers
 * still due, and prints one JSON array of `[scheduled epoch ms, latency ms, status]` (status 0: no
 * answer: a connection error, the 30 s timeout, or still waiting at the end, timed until then). At
 * most 5,000 requests wait at once; a tick that finds them all waiting sends nothing and is recorded
 * at the end as unanswered, so a dead server cannot make the probe grow without bound.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

const [url, token, intervalArg, maxSecondsArg] = process.argv.slice(2);
const interval = Number(intervalArg ?? 10);
const maxMs = Number(maxSecondsArg ?? 600) * 1000;
const MAX_WAITING = 5000;
const { hostname, port } = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const now = () => performance.timeOrigin + performance.now();
/** @type {Array<[number, number, number]>} */
const samples = [];
let waiting = 0;
let stopped = false;

/** @param {number} scheduled */
function once(scheduled) {
  if (waiting >= MAX_WAITING) return;
  waiting += 1;
  let done = false;
  const finish = (/** @type {number} */ status) => {
    if (done) return;
    done = true;
    waiting -= 1;
    samples.push([scheduled, now() - scheduled, status]);
  };
  const req = request(
    { hostname, port, path: '/v1/status', agent, headers: { authorization: `Bearer ${token}` }, timeout: 30_000 },
    (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 0));
      res.on('error', () => finish(0));
    },
  );
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => finish(0));
  req.end();
}

const started = now();
let tick = 0;
function schedule() {
  if (stopped) return;
  const scheduled = started + tick * interval;
  if (scheduled - started > maxMs) return stop();
  const wait = scheduled - now();
  if (wait > 0) {
    setTimeout(schedule, wait);
    return;
  }
  tick += 1;
  once(scheduled);
  setImmediate(schedule);
}

function stop() {
  if (stopped) return;
  stopped = true;
  const until = now() + 10_000;
  const drain = () => (waiting > 0 && now() < until ? setTimeout(drain, 20) : report());
  drain();
}

function report() {
  // Requests still waiting, and ticks that sent nothing, count as unanswered at their latency so far.
  const end = now();
  const answered = new Set(samples.map((s) => s[0]));
  for (let k = 0; k < tick; k++) {
    const scheduled = started + k * interval;
    if (!answered.has(scheduled)) samples.push([scheduled, end - scheduled, 0]);
  }
  process.stdout.write(`${JSON.stringify(samples)}\n`, () => process.exit(0));
}

process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
schedule();
