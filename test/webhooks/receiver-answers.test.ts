/**
 * Contract §4.3: what the sandbox reads of a receiver's answer. At most `webhookResponseLimit` bytes,
 * raw (never inflated), and all within the attempt's timeout: an attempt over it fails.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { sandbox } from './support.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A receiver answering each POST with `handle`, once its body is read; resolves its URL. */
async function receiverDoing(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

async function firstAttempt(s: ReturnType<typeof sandbox>) {
  // An advance by 0 answers once the attempts under way have ended.
  for (;;) {
    await s.advance(0);
    const [delivery] = await s.deliveries();
    if (delivery && delivery.attempts.length > 0) return { delivery, attempt: delivery.attempts[0]! };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("contract §4.3: a receiver's answer is read within bounds", () => {
  it('contract §4.3: at most webhookResponseLimit bytes of an endless answer are read, then the connection is closed', async () => {
    let written = 0;
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const url = await receiverDoing((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      // Writes as fast as the sandbox reads, up to 512 MB, until it hangs up.
      const pump = () => {
        while (!res.destroyed && written < 512 * 1024 ** 2) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', closed);
      pump();
    });
    const s = sandbox({ webhookResponseLimit: '16KiB', webhookTimeout: 600_000 });
    await s.endpoint(url);
    await s.trigger('inbox.updated');
    const { delivery, attempt } = await firstAttempt(s);
    await socketClosed;
    expect(attempt).toMatchObject({ status_code: 200, error: null });
    expect(delivery.status).toBe('succeeded');
    // What socket buffers hold beside the 16 KiB read: a few MB at most, never the 512 MB offered.
    expect(written).toBeLessThan(32 * 1024 ** 2);
  });

  it('contract §4.3: an answer is never inflated: identity is asked, and a gzip answer that is not even valid gzip still counts by its status', async () => {
    let acceptEncoding: string | undefined;
    const url = await receiverDoing((req, res) => {
      acceptEncoding = req.headers['accept-encoding'];
      // A gzip header, then garbage: inflating it would fail the read (fetch did, and failed the attempt).
      const bogus = Buffer.concat([gzipSync(Buffer.alloc(0)).subarray(0, 10), Buffer.alloc(4096, 0xff)]);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bogus.length }).end(bogus);
    });
    const s = sandbox({ webhookTimeout: 600_000 });
    await s.endpoint(url);
    await s.trigger('inbox.updated');
    const { delivery, attempt } = await firstAttempt(s);
    expect(acceptEncoding).toBe('identity');
    expect(attempt).toMatchObject({ status_code: 200, error: null });
    expect(delivery.status).toBe('succeeded');
  });

  it('contract §4.3: a small gzip answer that would inflate to 64 MiB is read raw, its status counting', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 ** 2), { level: 9 });
    const url = await receiverDoing((_req, res) => {
      res.writeHead(204, { 'content-encoding': 'gzip', 'content-length': bomb.length }).end(bomb);
    });
    const s = sandbox({ webhookTimeout: 600_000 });
    await s.endpoint(url);
    await s.trigger('inbox.updated');
    const { attempt } = await firstAttempt(s);
    expect(attempt).toMatchObject({ status_code: 204, error: null });
  });

  it('contract §4.3: an answer whose body trickles past webhookTimeout is a failed attempt, whatever its status', async () => {
    const url = await receiverDoing((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
      // One byte now and then, never the end: within any byte limit, never complete.
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('a')), 50);
      res.on('close', () => clearInterval(drip));
    });
    const s = sandbox({ webhookTimeout: 300 });
    await s.endpoint(url);
    await s.trigger('inbox.updated');
    const { delivery, attempt } = await firstAttempt(s);
    expect(attempt).toMatchObject({ status_code: 200, error: 'answer not complete within 300 ms' });
    expect(delivery.status).toBe('pending');
    expect(delivery.next_attempt_at).not.toBeNull();
  });
});
