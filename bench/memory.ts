/**
 * The memory soak (the sandbox's memory has structural bounds however long it runs), run as a child
 * with `--expose-gc` (bench/run.ts, `--only memory`): the heap after forced collection, before and
 * after long runs that used to grow without bound. Prints one JSON object.
 *   - 100k writes with fresh Idempotency-Keys under a frozen clock (PATCH of one inbox: the store of
 *     records does not grow, so what grows is the idempotency memory), one account;
 *   - 100k requests with the journal at its maximum size (1,000,000);
 *   - the boot, reset and clear of that journal;
 *   - GET /v1/status with 20k scenario activations of another account active.
 */
import { BENCH_RECORD_BUDGET } from './lib.js';
import type { RequestListener } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.js';
import { IDEMPOTENCY_KEYS_PER_ACCOUNT } from '../src/protocol/idempotency-store.js';
import { MAX_JOURNAL_SIZE } from '../src/config/options.js';
import { sendInMemory } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const FREE = { authorization: 'Bearer cc_test_free_default_key' };
const CLOCK = '2026-01-01T00:00:00Z';
const WRITES = 100_000;

function heapMiB(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function expectStatus(handler: RequestListener, request: Parameters<typeof sendInMemory>[1], status: number): Promise<void> {
  const got = await sendInMemory(handler, request);
  if (got !== status) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${got}, expected ${status}`);
}

async function idempotencySoak() {
  const app = createApp({ clock: CLOCK, recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'off' });
  const handler = listenerOf(app);
  const write = (i: number) =>
    expectStatus(
      handler,
      {
        method: 'PATCH',
        path: '/v1/email/inboxes/inbox_free_support',
        headers: { ...FREE, 'content-type': 'application/json', 'idempotency-key': `soak-${i}` },
        body: `{"display_name":"Desk ${i % 10}"}`,
      },
      200,
    );
  for (let i = 0; i < 1_000; i++) await write(-i - 1); // warm-up, and the journal (1,000) filled
  const before = heapMiB();
  for (let i = 0; i < IDEMPOTENCY_KEYS_PER_ACCOUNT; i++) await write(i);
  const atCap = heapMiB();
  for (let i = IDEMPOTENCY_KEYS_PER_ACCOUNT; i < WRITES; i++) await write(i);
  const after = heapMiB();
  return {
    before,
    atCap,
    after,
    keysHeld: app.sandbox.world.idempotency.size,
    bytesPerKeyToCap: ((atCap - before) * 2 ** 20) / IDEMPOTENCY_KEYS_PER_ACCOUNT,
  };
}

async function journalSoak() {
  const empty = heapMiB();
  let started = performance.now();
  // No byte budget: this measures what an entry costs, every one of them kept.
  const app = createApp({
    clock: CLOCK,
    recordBudget: BENCH_RECORD_BUDGET,
    rateLimit: 'off',
    journalSize: MAX_JOURNAL_SIZE,
    journalBudget: '16GiB',
  });
  const bootMs = performance.now() - started;
  const handler = listenerOf(app);
  const booted = heapMiB();
  for (let i = 0; i < WRITES; i++) await expectStatus(handler, { path: '/v1/status', headers: FREE }, 200);
  const after = heapMiB();
  started = performance.now();
  const cleared = app.sandbox.world.journal.clear();
  const clearMs = performance.now() - started;
  started = performance.now();
  app.sandbox.reset();
  const resetMs = performance.now() - started;
  const afterReset = heapMiB();
  return {
    bootMs,
    bootMiB: booted - empty,
    after: after - booted,
    bytesPerEntry: ((after - booted) * 2 ** 20) / WRITES,
    cleared,
    clearMs,
    resetMs,
    afterReset: afterReset - empty,
  };
}

async function statusMedianUs(handler: RequestListener): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3_000; i++) {
    const started = performance.now();
    await expectStatus(handler, { path: '/v1/status', headers: FREE }, 200);
    samples.push((performance.now() - started) * 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

async function activationsProbe() {
  const app = createApp({ clock: CLOCK, recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'off' });
  const handler = listenerOf(app);
  const none = await statusMedianUs(handler);
  for (let i = 0; i < 20_000; i++) app.sandbox.world.scenarios.activate({ name: 'server-error', account_id: 'acct_paid_default' });
  const many = await statusMedianUs(handler);
  return { none, many };
}

const idempotency = await idempotencySoak();
const journal = await journalSoak();
const activations = await activationsProbe();
process.stdout.write(`${JSON.stringify({ idempotency, journal, activations })}\n`);
