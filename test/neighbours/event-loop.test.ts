/**
 * The event-loop goal of the rule "no tenant can stall the others" (README "Tenants"; contract §4.1:
 * nothing a worker does to its own accounts may change what another worker's accounts see): work
 * that falls due for one tenant is done in slices that yield, so another tenant's request is
 * answered while an advance settles hundreds of due crawls, not after it. Held as an order of
 * answers, not as milliseconds: the neighbour's request is sent once the advance is under way, and
 * must come back before the advance does. The one time figure is an escape for an advance so quick
 * (under 1 s in all) that it had nothing to share; a sliced advance that takes longer must have let
 * the neighbour through, whatever the machine's load.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { pool } from '../../bench/hostile.js';
import type { RunningCli } from '../support/cli.js';
import { call, newTenant, startSandbox } from './support.js';

let sandbox: RunningCli | undefined;
afterEach(() => {
  sandbox?.child.kill('SIGKILL');
  sandbox = undefined;
});

/** Crawls for `token`, four in flight, all answered 201; their ids. */
async function crawls(base: string, token: string, count: number, maxPages?: number): Promise<string[]> {
  const ids: string[] = [];
  await pool(count, 4, async (i) => {
    const made = await call<{ id: string }>(
      base,
      'POST',
      '/v1/web/crawl',
      { url: `https://site-${i}.example.com/`, ...(maxPages ? { max_pages: maxPages } : {}) },
      { authorization: `Bearer ${token}` },
    );
    expect(made.status).toBe(201);
    ids.push(made.json.id);
  });
  return ids;
}

/**
 * Sends an admin POST and resolves `written` once its last byte has left (so the server is reading
 * it), and `answered` with its status and the instant its answer came.
 */
function post(base: string, path: string, body: unknown): { written: Promise<void>; answered: Promise<{ status: number; at: number }> } {
  const { hostname, port } = new URL(base);
  const bytes = Buffer.from(JSON.stringify(body));
  let written!: () => void;
  const writtenPromise = new Promise<void>((resolve) => (written = resolve));
  const answered = new Promise<{ status: number; at: number }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': bytes.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, at: performance.now() }));
      },
    );
    req.on('error', reject);
    req.on('finish', () => written());
    req.end(bytes);
  });
  return { written: writtenPromise, answered };
}

/**
 * Advances with `path` and, once the advance is on its way (written, and a moment for the server to
 * read it), sends the neighbour's `GET /v1/status` one after another until the advance answers.
 * Returns how many of them were answered before the advance was, and how long the advance took.
 */
async function neighbourDuringAdvance(base: string, path: string, neighbourToken: string): Promise<{ before: number; advanceMs: number }> {
  const sent = performance.now();
  const advance = post(base, path, { seconds: 86_400 });
  let advanced = false;
  const answered = advance.answered.then((result) => {
    advanced = true;
    return result;
  });
  await advance.written;
  await new Promise((resolve) => setTimeout(resolve, 50));
  let before = 0;
  // Bounded: the loop ends when the advance answers, or after 10,000 neighbour requests.
  for (let i = 0; i < 10_000 && !advanced; i++) {
    const status = await call(base, 'GET', '/v1/status', undefined, { authorization: `Bearer ${neighbourToken}` });
    expect(status.status).toBe(200);
    if (!advanced) before += 1;
  }
  const { status, at } = await answered;
  expect(status).toBe(200);
  return { before, advanceMs: at - sent };
}

describe("work falling due for one tenant is settled in slices: another tenant's request is answered before the advance that settles it", () => {
  it("a request of another account is answered before an account's own-clock advance over 250 due crawls of 100 pages answers", async () => {
    sandbox = await startSandbox();
    const base = sandbox.url;
    const hostile = await newTenant(base, { clock: 'frozen' });
    const neighbour = await newTenant(base);
    const ids = await crawls(base, hostile.token, 250, 100);
    const { before, advanceMs } = await neighbourDuringAdvance(base, `/__admin/accounts/${hostile.id}/clock/advance`, neighbour.token);
    expect(
      before > 0 || advanceMs < 1000,
      `neighbour answered ${before} times before the advance, which took ${Math.round(advanceMs)} ms`,
    ).toBe(true);
    // The advance did its work: the crawls have ended, the first and the last made among them.
    for (const id of [ids[0]!, ids.at(-1)!]) {
      const job = await call<{ status: string }>(base, 'GET', `/v1/jobs/${id}`, undefined, { authorization: `Bearer ${hostile.token}` });
      expect(job.json.status).toBe('completed');
    }
  });

  it('a request of an account with its own clock is answered before a sandbox-clock advance over 500 due crawls answers', async () => {
    sandbox = await startSandbox();
    const base = sandbox.url;
    const hostile = await newTenant(base);
    const neighbour = await newTenant(base, { clock: 'frozen' });
    await crawls(base, hostile.token, 500);
    const { before, advanceMs } = await neighbourDuringAdvance(base, '/__admin/clock/advance', neighbour.token);
    expect(
      before > 0 || advanceMs < 1000,
      `neighbour answered ${before} times before the advance, which took ${Math.round(advanceMs)} ms`,
    ).toBe(true);
  });
});
