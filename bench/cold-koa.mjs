/**
 * The cold-start baseline (bench/run.ts, section 3): a bare Koa app in plain JavaScript, started the
 * way the CLI is (`node <file>`, no tsx), answering GET /v1/status with a fixed JSON body. From spawn
 * to its first answer is what any Koa service pays: node's start-up and loading Koa.
 */
import { createServer } from 'node:http';
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json';
  ctx.body = '{"status":"ok"}';
});
const handle = app.callback();
// Koa answers every failure itself; its promise is dropped on purpose.
const server = createServer((req, res) => void handle(req, res));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare koa listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
