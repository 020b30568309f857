/**
 * The cost of one request with no network and no load generator: an app's callback driven over
 * in-memory sockets, one request at a time. Run as a child process per app (`bare` or `sandbox`),
 * so the two never share Koa's warmed-up code, and prints `{"us": …}`: the fastest of several rounds,
 * the least disturbed by whatever else the machine runs.
 */
import type { RequestListener } from 'node:http';
import Koa from 'koa';
import { createApp } from '../src/app.js';
import { sendInMemory } from './in-memory-request.js';
import { listenerOf } from './koa-listener.js';

const PAID = { authorization: 'Bearer cc_test_paid_default_key' };

function once(handler: RequestListener, path: string): Promise<number> {
  return sendInMemory(handler, { path, headers: PAID });
}

function bareKoa(body: string): RequestListener {
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return listenerOf(app);
}

const which = process.argv[2];
const path = '/v1/status';
let handler: RequestListener;
if (which !== 'bare') {
  handler = listenerOf(createApp({ rateLimit: 'off', clock: '2026-01-01T00:00:00Z' }));
} else {
  // The same JSON the sandbox answers, captured from it, served as a string.
  let captured = '';
  const capture = createApp({ rateLimit: 'off', clock: '2026-01-01T00:00:00Z' });
  capture.responseObservers.add((response) => (captured = JSON.stringify(response.body)));
  await once(listenerOf(capture), path);
  handler = bareKoa(captured);
}
const ROUNDS = 7;
const PER_ROUND = 10_000;
for (let i = 0; i < 5_000; i++) await once(handler, path);
const rounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  for (let i = 0; i < PER_ROUND; i++) await once(handler, path);
  rounds.push(((performance.now() - started) * 1000) / PER_ROUND);
}
process.stdout.write(`${JSON.stringify({ us: Math.min(...rounds) })}\n`);
