/**
 * Preload for the sandbox under a CPU profile (bench/neighbours.ts, BENCH_SANDBOX_NODE_ARGS="--import
 * ./bench/profile-clock.mjs --cpu-prof --cpu-prof-dir=DIR"): writes `DIR/clock-<pid>.json`, the wall
 * clock and the monotonic clock read together, so bench/slow-windows.ts can place the neighbour's
 * samples (wall time) on the profile's timeline (monotonic microseconds).
 */
import { writeFileSync } from 'node:fs';

const dir = process.env.PROF_DIR ?? '.';
writeFileSync(`${dir}/clock-${process.pid}.json`, JSON.stringify({ wall: Date.now(), mono: Number(process.hrtime.bigint() / 1000n) }));
