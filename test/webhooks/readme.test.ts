/**
 * docs/webhooks.md, "Testing your webhook receiver": its ten-line receiver runs as written against a real
 * sandbox, accepts a genuine delivery (de-duplicated by webhook-id) and refuses a badly signed one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInThisContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, sandbox } from './support.js';
import { docPage } from '../support/docs.js';

const section = docPage('webhooks');
const receiverCode = /```ts\n([\s\S]*?)```/.exec(section)![1]!;

type Run = (createServer: unknown, Webhook: unknown, secret: string) => { server: Server; seen: Set<string> };

describe('docs/webhooks.md "Testing your webhook receiver"', () => {
  it('the README receiver verifies a real delivery, sees a duplicate once, and refuses a bad signature', async () => {
    // The import lines are the reader's; the test hands the same modules in, and listens on any free port.
    const code = receiverCode
      .split('\n')
      .filter((line) => !line.startsWith('import '))
      .join('\n')
      .replace('createServer(', 'const server = createServer(')
      .replace('.listen(8080)', '.listen(0, "127.0.0.1")');
    const source = transformSync(`function run(createServer, Webhook, secret) {\n${code}\nreturn { server, seen };\n}`, {
      loader: 'ts',
    }).code;
    const run = runInThisContext(`(${source.trim().replace(/;$/, '')})`) as Run;
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { server, seen } = run(createServer, Webhook, secret);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const s = sandbox();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      await s.endpoint(url, { secret });
      await s.api.post('/__admin/scenarios').send({ name: 'webhooks-duplicated', account_id: ACCOUNTS.free, times: 1 });
      const event = (await s.trigger('inbox.updated')).body as { id: string };
      await s.advance(0);
      expect([...seen]).toEqual([event.id]);
      await s.api.post('/__admin/scenarios').send({ name: 'webhooks-badly-signed', account_id: ACCOUNTS.free, times: 1 });
      await s.trigger('inbox.updated');
      await s.advance(0);
      const deliveries = await s.deliveries();
      expect(deliveries.map((d) => d.attempts[0]!.status_code)).toEqual([400, 204, 204]);
      expect(seen.size).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
