/**
 * What a tenant costs to create, reset and hold, run as a child with `--expose-gc` (bench/run.ts,
 * `--only tenants`), all in one process and side by side with a bare Koa POST over the same
 * in-memory sockets. Prints one JSON object:
 *   - the first import of the library (dist/index.js, what `import { createApp }` loads), then
 *     `createApp()` p50 once the module is loaded;
 *   - `POST /__admin/accounts`, `POST /__admin/accounts/{id}/reset` and `POST /__admin/reset`
 *     p50/p99, and a bare Koa POST p50/p99, in rotated rounds;
 *   - heap per tenant that has not written (nor read), and per tenant that read its records once
 *     (and wrote nothing), at 100, 1,000 and 10,000 tenants;
 *   - the cost of a rate-limited job read (`GET /v1/jobs/{id}`) with 10,000 tenants, each with its
 *     own clock, against one tenant.
 */
import type { RequestListener } from 'node:http';
import { performance } from 'node:perf_hooks';
import Koa from 'koa';
import { sendInMemory, type InMemoryRequest } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';
import { percentile, BENCH_RECORD_BUDGET } from './lib.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const CLOCK = '2026-01-01T00:00:00Z';
const JSON_HEADERS = { 'content-type': 'application/json' };
const ROUNDS = 5;
const PER_ROUND = 400;

let started = performance.now();
// The built library, as a client suite imports it (`npm run bench` builds first). A path in a
// variable: typechecking does not need a build.
const LIBRARY = '../dist/index.js';
const { createApp } = (await import(LIBRARY)) as Pick<typeof import('../src/app.js'), 'createApp'>;
const firstImportMs = performance.now() - started;

function heapBytes(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

async function expect(handler: RequestListener, request: InMemoryRequest, status: number): Promise<void> {
  const got = await sendInMemory(handler, request);
  if (got !== status) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${got}, expected ${status}`);
}

function summary(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function timed(samples: number[], run: () => Promise<void>): Promise<void> {
  const at = performance.now();
  await run();
  samples.push(performance.now() - at);
}

function createAppTimes(): { p50: number; p99: number } {
  for (let i = 0; i < 20; i++) createApp({ clock: CLOCK });
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) {
    const at = performance.now();
    createApp({ clock: CLOCK });
    samples.push(performance.now() - at);
  }
  return summary(samples);
}

function bareKoaPost(): RequestListener {
  const app = new Koa();
  app.use((ctx) => {
    ctx.status = 201;
    ctx.type = 'application/json';
    ctx.body = '{"ok":true}';
  });
  return listenerOf(app);
}

/** Rotated rounds of the four POSTs, so each is measured beside the others on the same machine state. */
async function adminTimes() {
  const app = createApp({ clock: CLOCK, recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'off' });
  const handler = listenerOf(app);
  const bare = bareKoaPost();
  const create = () => expect(handler, { method: 'POST', path: '/__admin/accounts', headers: JSON_HEADERS, body: '{"plan":"paid"}' }, 201);
  await create();
  const id = app.sandbox.world.store.accountIds().at(-1)!;
  const kinds = {
    bare: () => expect(bare, { method: 'POST', path: '/', headers: JSON_HEADERS, body: '{"plan":"paid"}' }, 201),
    create,
    accountReset: () => expect(handler, { method: 'POST', path: `/__admin/accounts/${id}/reset`, headers: JSON_HEADERS, body: '{}' }, 200),
    sandboxReset: () => expect(handler, { method: 'POST', path: '/__admin/reset', headers: JSON_HEADERS, body: '{}' }, 200),
  };
  const names = Object.keys(kinds) as (keyof typeof kinds)[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<keyof typeof kinds, number[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      // The sandbox reset drops the account the account reset acts on: it is measured last in each round.
      if (name === 'sandboxReset') continue;
      for (let i = 0; i < PER_ROUND; i++) await timed(samples[name], kinds[name]);
    }
    for (let i = 0; i < PER_ROUND / 4; i++) await timed(samples.sandboxReset, kinds.sandboxReset);
    await create();
    Object.assign(kinds, {
      accountReset: (() => {
        const next = app.sandbox.world.store.accountIds().at(-1)!;
        return () => expect(handler, { method: 'POST', path: `/__admin/accounts/${next}/reset`, headers: JSON_HEADERS, body: '{}' }, 200);
      })(),
    });
  }
  return Object.fromEntries(names.map((name) => [name, summary(samples[name])])) as Record<
    keyof typeof kinds,
    { p50: number; p99: number }
  >;
}

/**
 * More tenants than the process-wide cache of derived records holds (32, src/store/derived-cache.ts),
 * read before measuring: that cache is a fixed cost of the process (~2.6 MB at the default counts),
 * so a measure starts with it full and each read tenant then evicts another's records.
 */
const CACHE_WARM_UP = 64;

/**
 * Heap per tenant made through the admin API that has done nothing since (no read, no write), or,
 * with `read`, whose state was then read once (`GET /__admin/accounts/{id}`, which derives its
 * seeded records into the cache, not into the account). At 1 tenant the heap moves by more than a
 * tenant between two collections, so the figure is the median of 21 one-tenant steps.
 */
async function heapPerTenant(count: number, read = false): Promise<number> {
  const app = createApp({ clock: CLOCK, recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'off' });
  const handler = listenerOf(app);
  const addTenant = async () => {
    await expect(handler, { method: 'POST', path: '/__admin/accounts', headers: JSON_HEADERS, body: '{}' }, 201);
    if (read) await expect(handler, { path: `/__admin/accounts/${app.sandbox.world.store.accountIds().at(-1)!}` }, 200);
  };
  // One tenant first, so what every sandbox holds once (compiled schemas, caches) is not counted.
  const warmUp = read ? CACHE_WARM_UP : 1;
  for (let i = 0; i < warmUp; i++) await addTenant();
  if (count === 1) {
    const steps: number[] = [];
    for (let i = 0; i < 21; i++) {
      const before = heapBytes();
      await addTenant();
      steps.push(heapBytes() - before);
    }
    return steps.sort((a, b) => a - b)[10]!;
  }
  const before = heapBytes();
  for (let i = 0; i < count; i++) await addTenant();
  const after = heapBytes();
  if (app.sandbox.world.store.accountIds().length !== count + warmUp + 2) throw new Error('tenants missing');
  return (after - before) / count;
}

/** µs per `GET /v1/jobs/{id}` (rate limited at the spec's quotas), round-robin over `count` tenants with their own clocks. */
async function jobReadUs(count: number): Promise<number> {
  // Quotas no run reaches, so every read goes through the limiter's counting and none is refused.
  const app = createApp({ clock: CLOCK, recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'free=100000000,paid=100000000' });
  const handler = listenerOf(app);
  const reads: InMemoryRequest[] = [];
  for (let i = 0; i < count; i++) {
    const world = app.sandbox.world;
    const account = world.createAccount({ plan: 'paid', clock: { mode: 'frozen', start: Date.parse(CLOCK) } });
    const { token } = world.createApiKey(account);
    world.sealBirth(account);
    const auth = { authorization: `Bearer ${token}` };
    const crawl = { method: 'POST', path: '/v1/web/crawl', headers: { ...auth, ...JSON_HEADERS }, body: '{"url":"https://example.com"}' };
    await expect(handler, crawl, 201);
    const job = account.collection('jobs').values()[0]!;
    reads.push({ path: `/v1/jobs/${job.id}`, headers: auth });
  }
  const total = 20_000;
  for (let i = 0; i < 2_000; i++) await expect(handler, reads[i % count]!, 200);
  started = performance.now();
  for (let i = 0; i < total; i++) await expect(handler, reads[i % count]!, 200);
  return ((performance.now() - started) * 1000) / total;
}

const createAppMs = createAppTimes();
const admin = await adminTimes();
const heap: Record<number, number> = {};
for (const count of [1, 1_000, 10_000]) heap[count] = await heapPerTenant(count);
// Not at 1: one read allocates and frees ~80 KiB of derived records (the cache evicts as much as it
// takes in), which moves a single step's heap by tens of KiB either way; 100 steps average that out.
const afterRead: Record<number, number> = {};
for (const count of [100, 1_000, 10_000]) afterRead[count] = await heapPerTenant(count, true);
const jobReads = { one: await jobReadUs(1), many: await jobReadUs(Number(process.env.BENCH_JOB_TENANTS ?? 10_000)) };
process.stdout.write(`${JSON.stringify({ firstImportMs, createAppMs, admin, heap, afterRead, jobReads })}\n`);
