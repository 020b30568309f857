/**
 * Section 7 of `npm run bench` (`--only filters`): list filters and journal filters against
 * collection size (filters must cost O(log n + limit), not a scan). Each size gets a fresh app filled straight
 * through the store and the journal (quick: no HTTP for the fill), then sequential requests over
 * loopback (in process), cells side by side in the same run. Beside the indexed answers, the naive
 * filter they replaced (a walk of the whole collection, still `Collection.page({ filter })`) is
 * timed in process, as the "before" of the same data.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp, type MockApp } from '../src/app.js';
import type { ExperienceRecord, MessageRecord } from '../src/store/records.js';
import { listenerOf } from './koa-listener.js';
import { fmt, percentile, BENCH_RECORD_BUDGET } from './lib.js';

const PAID = { Authorization: 'Bearer cc_test_paid_default_key' };
const ACCOUNT = 'acct_paid_default';
const SIZES = [1_000, 10_000, 100_000, 1_000_000];
const REQUESTS_PER_CELL = Number(process.env.BENCH_FILTER_REQUESTS ?? 200);
/** Unmeasured requests first, so the smallest size (measured first) is not the one paying for the JIT warming up. */
const WARMUP_PER_CELL = 50;
const BASE = Date.parse('2020-01-01T00:00:00Z');
const iso = (i: number) => new Date(BASE + i * 1000).toISOString().replace('.000Z', 'Z');
/** One record in a hundred is the rare kind a "1%" filter finds. */
const rare = (i: number) => i % 100 === 37;

interface Cell {
  name: string;
  /** The app it asks: the lists' app records no journal, so its requests do not evict the journal app's entries. */
  app: 'lists' | 'journal';
  /** Path and query, with the inbox id or cursor filled in for the size. */
  path: (fill: Filled) => string;
}

interface Filled {
  inboxId: string;
  middleRequestId: string;
}

/**
 * Cells where 1% match ask for 10 entries, the others for 100: at 1,000 records 1% is 10 entries, so
 * a limit of 100 answered 10 entries there and 100 at 1M, and the ratio measured the page (3.5x in
 * process), not the filter (1.0x with equal pages).
 */
const CELLS: Cell[] = [
  { name: 'experiences `type` matching nothing', app: 'lists', path: () => '/v1/experiences?limit=100&type=event' },
  { name: 'experiences `type` matching 1%', app: 'lists', path: () => '/v1/experiences?limit=10&type=link' },
  {
    name: 'messages `label` matching 1%',
    app: 'lists',
    path: ({ inboxId }) => `/v1/email/inboxes/${inboxId}/messages?limit=10&label=starred`,
  },
  {
    name: 'messages `label` + `direction` matching nothing',
    app: 'lists',
    path: ({ inboxId }) => `/v1/email/inboxes/${inboxId}/messages?limit=100&label=starred&direction=outbound`,
  },
  { name: 'journal `account_id` matching 1%', app: 'journal', path: () => '/__admin/requests?limit=10&account_id=acct_rare' },
  {
    name: 'journal deep cursor (the middle entry)',
    app: 'journal',
    path: ({ middleRequestId }) => `/__admin/requests?limit=100&starting_after=${middleRequestId}`,
  },
];

/** n experiences (1% `link`, the rest `course`) and n messages in one inbox (1% starred). */
function fillLists(app: MockApp, n: number): string {
  const store = app.sandbox.world.store.forAccount(ACCOUNT)!;
  const experiences = store.write('experiences');
  const messages = store.write('messages');
  const course = experiences.find((e) => e.type === 'course')!;
  const link = experiences.find((e) => e.type === 'link')!;
  const message = messages.find((m) => m.direction === 'inbound')!;
  for (const seeded of experiences.values()) experiences.delete(seeded.id);
  for (const seeded of messages.values()) messages.delete(seeded.id);
  for (let i = 0; i < n; i++) {
    const template = rare(i) ? link : course;
    experiences.insert({ ...template, id: `exp_bench${i}`, slug: `bench-${i}`, created_at: iso(i) } satisfies ExperienceRecord);
    const labels = rare(i) ? ['received', 'starred'] : ['received'];
    messages.insert({ ...message, id: `msg_bench${i}`, labels, created_at: iso(i) } satisfies MessageRecord);
  }
  return message.inbox_id;
}

/** A bench entry's request id: fixed width, so ids sort as issued, as the sandbox's own (`req_` and twelve digits) do. */
const benchRequestId = (i: number) => `req_bench${String(i).padStart(12, '0')}`;

/** n journal entries, 1% of them of acct_rare. */
function fillJournal(app: MockApp, n: number): void {
  const { journal } = app.sandbox.world;
  for (let i = 0; i < n; i++) {
    const ticket = journal.arrive({ request_id: benchRequestId(i), method: 'GET', path: '/v1/status', querystring: '', at: BASE + i });
    const account = rare(i) ? 'acct_rare' : ACCOUNT;
    journal.finish(ticket, {
      status: 200,
      account_id: account,
      api_key_id: `key_${account}`,
      operation_id: 'getStatus',
      idempotent_replayed: false,
      scenario_ids: [],
      fault: null,
      raw_body: undefined,
    });
  }
}

async function serve(app: MockApp): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listenerOf(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: PAID });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

/** Median ms of the naive filter the index replaced: a page of the whole collection through a predicate. */
function naiveTypeFilterMs(app: MockApp): number {
  const experiences = app.sandbox.world.store.forAccount(ACCOUNT)!.collection('experiences');
  const samples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    experiences.page({ limit: 100, filter: (e) => e.type === 'event' });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return percentile(samples, 50);
}

/** Prints the section; returns the worst 1M/1k ratio of the p50s over the cells. */
export async function filters(out: (line?: string) => void): Promise<number> {
  out('## List and journal filters against collection size');
  out();
  out(
    `One account holding n experiences and n messages (one inbox), and a journal of n entries (\`journalSize\` n), filled through the store; ${REQUESTS_PER_CELL} sequential requests per cell over loopback (in process) after ${WARMUP_PER_CELL} unmeasured ones, limit 100, or 10 where 1% match (so every size fills the page). "first" is the first request, which builds the list's index (built once, then kept up to date by every write).`,
  );
  out();
  out(`| filter | ${SIZES.map((n) => `${n.toLocaleString('en-US')}: p50 / p99 ms`).join(' | ')} | 1M / 1k (p50) |`);
  out(`|---|${SIZES.map(() => '---|').join('')}---|`);
  const p50: Record<string, number[]> = {};
  const rows: Record<string, string[]> = {};
  const firsts: string[] = [];
  const naive: string[] = [];
  const fills: string[] = [];
  for (const n of SIZES) {
    const lists = createApp({ clock: '2026-01-01T00:00:00Z', recordBudget: BENCH_RECORD_BUDGET, rateLimit: 'off', journalSize: 0 });
    // Every one of the n entries kept, whatever they weigh: the cells compare sizes.
    const journal = createApp({
      clock: '2026-01-01T00:00:00Z',
      recordBudget: BENCH_RECORD_BUDGET,
      rateLimit: 'off',
      journalSize: n,
      journalBudget: '16GiB',
    });
    const filling = performance.now();
    const filled: Filled = { inboxId: fillLists(lists, n), middleRequestId: benchRequestId(Math.floor(n / 2)) };
    fillJournal(journal, n);
    fills.push(fmt((performance.now() - filling) / 1000, 1));
    naive.push(fmt(naiveTypeFilterMs(lists), 2));
    const servers = { lists: await serve(lists), journal: await serve(journal) };
    const urlOf = (cell: Cell) => servers[cell.app].url + cell.path(filled);
    const first: string[] = [];
    for (const cell of CELLS) first.push(`${fmt(await timed(urlOf(cell)), 1)}`);
    firsts.push(first.slice(0, 4).join(' / '));
    for (const cell of CELLS) {
      for (let i = 0; i < WARMUP_PER_CELL; i++) await timed(urlOf(cell));
      const samples: number[] = [];
      for (let i = 0; i < REQUESTS_PER_CELL; i++) samples.push(await timed(urlOf(cell)));
      samples.sort((a, b) => a - b);
      (p50[cell.name] ??= []).push(percentile(samples, 50));
      (rows[cell.name] ??= []).push(`${fmt(percentile(samples, 50), 2)} / ${fmt(percentile(samples, 99), 2)}`);
    }
    await servers.lists.close();
    await servers.journal.close();
  }
  let worst = 0;
  for (const cell of CELLS) {
    const values = p50[cell.name]!;
    const ratio = values[values.length - 1]! / values[0]!;
    worst = Math.max(worst, ratio);
    out(`| ${cell.name} | ${rows[cell.name]!.join(' | ')} | ${fmt(ratio, 2)}× |`);
  }
  out(`| (before) naive \`type\` filter matching nothing, in process, ms | ${naive.join(' | ')} | — |`);
  out(`| first request of the four list cells (builds the index), ms | ${firsts.join(' | ')} | — |`);
  out(`| fill time, s | ${fills.join(' | ')} | — |`);
  out();
  out(`Worst p50 ratio 1M / 1k over the filters: **${fmt(worst, 2)}×** (target: within 2×).`);
  out();
  return worst;
}
