/**
 * Run by heap-copies.test.ts in a process of its own, with a new space large enough that no
 * collection runs during one request (`--min-semi-space-size=64 --max-semi-space-size=64`, and a
 * full one before each, `--expose-gc`): sends
 * 1 MB `PATCH /v1/email/inboxes/{id}` bodies to an in-process sandbox over a raw socket (the client
 * makes no string of its own) and prints, per shape, the bytes the V8 heap's large-object spaces
 * grew by during one request (warm: its validators compiled and the account derived by a first
 * one). Every string of a megabyte is a large object, so this counts the copies of the body that one
 * request makes in the heap, whether kept or garbage. Bytes, never time.
 *
 *   node --import tsx --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 test/neighbours/heap-copies-probe.ts
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { startMockServer, type MockServer } from '../../src/server.js';
import { hostilePatchBody } from '../../bench/hostile.js';

// As in support.ts, which imports vitest and cannot be loaded outside it.
const HOSTILE_KEY = 'cc_test_paid_default_key';
const HOSTILE_ACCOUNT = 'acct_paid_default';
const HOSTILE_INBOX = 'inbox_paid_support';
const body = hostilePatchBody();

function largeObjectBytes(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) if (space.space_name.includes('large_object')) bytes += space.space_used_size;
  return bytes;
}

/** One PATCH on a connection of its own; resolves with the bytes of the answer once the server closes it. */
function patch(base: string, idempotencyKey?: string): Promise<number> {
  const { port } = new URL(base);
  const head =
    `PATCH /v1/email/inboxes/${HOSTILE_INBOX} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${HOSTILE_KEY}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n` +
    `${idempotencyKey ? `Idempotency-Key: ${idempotencyKey}\r\n` : ''}\r\n`;
  return new Promise((resolve, reject) => {
    let received = 0;
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(head);
      socket.write(body);
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc');
  collect();
};

const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

interface Shape {
  name: string;
  options: Parameters<typeof startMockServer>[0];
  idempotencyKeys?: boolean;
  /** Endpoints of the account that take the event (each gets a delivery of it). */
  subscribed?: number;
}

const SHAPES: Shape[] = [
  { name: 'journal', options: {} },
  { name: 'idempotency', options: { journalSize: 0 }, idempotencyKeys: true },
  { name: 'webhook', options: {}, subscribed: 1 },
  { name: 'webhookTwice', options: {}, subscribed: 2 },
];

/**
 * Bytes of the whole V8 heap in use: with no collection during a request, what it grows by is all the
 * request allocated there, small objects included (the pieces JSON.stringify builds a text from).
 */
const heapBytes = (): number => getHeapStatistics().used_heap_size;

/** Bytes of Buffers and other array buffers alive (or not yet collected): a body encoded outside the V8 heap. */
const bufferBytes = (): number => process.memoryUsage().arrayBuffers;

async function measure(shape: Shape): Promise<{ heap: number[]; buffers: number[]; allocated: number[] }> {
  const mock: MockServer = await startMockServer({ port: 0, rateLimit: 'off', clock: '2026-01-01T00:00:00Z', ...shape.options });
  let delivered = 0;
  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered += 1;
      res.writeHead(204).end();
    });
  });
  try {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    for (let i = 0; i < (shape.subscribed ?? 0); i++) {
      mock.app.sandbox.world.webhooks.createEndpoint({ accountId: HOSTILE_ACCOUNT, url, events: ['inbox.updated'] });
    }
    const expected = shape.subscribed ?? 0;
    await patch(mock.url, shape.idempotencyKeys ? 'warm' : undefined);
    await until(() => delivered >= expected);
    const grown: number[] = [];
    const buffers: number[] = [];
    const allocated: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A full collection first, so that none falls due during the request (it would hide copies).
      gc();
      const before = largeObjectBytes();
      const buffersBefore = bufferBytes();
      const heapBefore = heapBytes();
      const answered = await patch(mock.url, shape.idempotencyKeys ? `key-${i}` : undefined);
      if (answered < body.length) throw new Error(`${shape.name}: the answer was ${answered} bytes`);
      await until(() => delivered >= expected * (i + 2));
      grown.push(largeObjectBytes() - before);
      buffers.push(bufferBytes() - buffersBefore);
      allocated.push(heapBytes() - heapBefore);
    }
    return { heap: grown, buffers, allocated };
  } finally {
    await mock.close();
    receiver.close();
  }
}

const grown: Record<string, number[]> = {};
const buffers: Record<string, number[]> = {};
const allocated: Record<string, number[]> = {};
for (const shape of SHAPES) {
  ({ heap: grown[shape.name], buffers: buffers[shape.name], allocated: allocated[shape.name] } = await measure(shape));
}
process.stdout.write(`${JSON.stringify({ bodyBytes: body.length, grown, buffers, allocated })}\n`);
