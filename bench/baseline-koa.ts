/**
 * The baseline: a bare Koa app on loopback that answers the same paths with the same JSON bodies
 * (captured from the sandbox) and nothing else: no auth, no validation, no rate limiting. The
 * sandbox's cost per request is measured against this in the same run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { listenerOf } from './koa-listener.js';

const bodies = JSON.parse(process.argv[2] ?? '{}') as Record<string, { status: number; body: string }>;
// `--with-headers`: also send the seven headers every /v1 response must carry (Request-Id,
// X-Request-Id, RateLimit, RateLimit-Policy, X-RateLimit-*) and serialize the JSON per request: the
// cost a straightforward Koa implementation of the contract pays before doing any of its work.
const withHeaders = process.argv.includes('--with-headers');
const app = new Koa();
let served = 0;
app.use((ctx) => {
  const answer = bodies[`${ctx.method} ${ctx.path}`];
  if (!answer) {
    ctx.status = 404;
    return;
  }
  ctx.status = answer.status;
  ctx.type = 'application/json';
  if (withHeaders) {
    served += 1;
    const id = `req_${String(served).padStart(12, '0')}`;
    const remaining = String(Math.max(0, 3000 - served));
    ctx.set({
      'Request-Id': id,
      'X-Request-Id': id,
      'RateLimit-Policy': '"default";q=3000;w=60',
      RateLimit: `"default";r=${remaining};t=42`,
      'X-RateLimit-Limit': '3000',
      'X-RateLimit-Remaining': remaining,
      'X-RateLimit-Reset': '1767225660',
    });
    ctx.body = JSON.parse(answer.body) as unknown;
  } else {
    ctx.body = answer.body;
  }
});
const server = createServer(listenerOf(app));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
