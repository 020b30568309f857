/**
 * The baseline: a bare Koa app on loopback that answers the same paths with the same JSON bodies
 * (captured from the sandbox) and nothing else: no auth, no validation, no rate limiting. The
 * sandbox's cost per request is measured against this in the same run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const bodies = JSON.parse(process.argv[2] ?? '{}') as Record<string, { status: number; body: string }>;
const app = new Koa();
app.use((ctx) => {
  const answer = bodies[`${ctx.method} ${ctx.path}`];
  if (!answer) {
    ctx.status = 404;
    return;
  }
  ctx.status = answer.status;
  ctx.type = 'application/json';
  ctx.body = answer.body;
});
const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
