/**
 * The hostile shapes one tenant can throw at a shared sandbox, shared by the "neighbours" section of
 * `npm run bench` (bench/neighbours.ts) and the goal tests that hold it (test/neighbours/): megabyte
 * bodies, a webhook receiver that answers a huge stream or a gzip bomb, the peak RSS of the sandbox's
 * process and the byte size of an admin listing, counted as it streams (never held). Loopback only.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A metadata value that brings a `PATCH /v1/email/inboxes/{id}` body just under koa-bodyparser's 1 MiB limit. */
export const HOSTILE_METADATA_CHARS = 1_040_000;

/** The body of one ~1 MB hostile PATCH, encoded once: every request sends the same bytes. */
export function hostilePatchBody(): Buffer {
  return Buffer.from(JSON.stringify({ metadata: { note: 'x'.repeat(HOSTILE_METADATA_CHARS) } }));
}

/** One gzip member of 16 MiB of zeros: ~16 KiB. */
const MEMBER_INFLATED = 16 * 2 ** 20;

/**
 * A gzip body that inflates to `inflatedBytes` (rounded up to 16 MiB): identical gzip members one
 * after another (RFC 1952 §2.2: a gzip file is a series of members; every gunzip, fetch's included,
 * inflates them all). 1 GiB inflated is ~1 MB sent; built in ~0.1 s from one 16 MiB buffer, which
 * is dropped at once.
 */
export function gzipBomb(inflatedBytes: number): Buffer {
  const member = gzipSync(Buffer.alloc(MEMBER_INFLATED), { level: 9 });
  return Buffer.concat(Array.from({ length: Math.max(1, Math.ceil(inflatedBytes / MEMBER_INFLATED)) }, () => member));
}

/** What a hostile receiver answers to the n-th delivery (0-based). */
export type HostileAnswer = { kind: 'status'; status: number } | { kind: 'stream'; bytes: number } | { kind: 'gzip'; body: Buffer };

export interface HostileReceiver {
  url: string;
  /** Deliveries received. */
  readonly received: number;
  /** Bytes of answer bodies the receiver got to write (a reader that stops reading stops the stream). */
  readonly bytesSent: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(256 * 1024, 'x');

/**
 * A webhook receiver on 127.0.0.1. A `stream` answer is 200 with `bytes` of text written in 256 KiB
 * chunks as fast as the reader takes them (backpressure: nothing piles up here); it stops when the
 * reader goes away. A `gzip` answer is 200 with `Content-Encoding: gzip`.
 */
export async function startHostileReceiver(answer: (n: number) => HostileAnswer): Promise<HostileReceiver> {
  let received = 0;
  let bytesSent = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const reply = answer(received++);
      if (reply.kind === 'status') {
        res.statusCode = reply.status;
        res.end();
        return;
      }
      if (reply.kind === 'gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': reply.body.length });
        res.end(reply.body);
        bytesSent += reply.body.length;
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': reply.bytes });
      let left = reply.bytes;
      let closed = false;
      res.on('close', () => (closed = true));
      const pump = (): void => {
        while (left > 0 && !closed) {
          const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
          left -= piece.length;
          bytesSent += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!closed) res.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get received() {
      return received;
    },
    get bytesSent() {
      return bytesSent;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The highest resident set size a process has had (VmHWM, Linux), in bytes; NaN once it has gone. */
export function peakRssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
  } catch {
    return NaN;
  }
}

export interface Listing {
  path: string;
  status: number;
  /** Bytes of the body, counted up to `cap` (the reading stops there). */
  bytes: number;
  /** True when the body went past `cap` and was not read to its end. */
  capped: boolean;
  ms: number;
  /** Why there was no answer (the process died, a timeout), if there was none. */
  error?: string;
}

/**
 * Reads an admin listing and counts its bytes as they stream, holding none of them; past `cap` bytes
 * it stops reading (the answer is already too large). A listing that never answers fails after `timeoutMs`.
 */
export async function measureListing(base: string, path: string, cap = Infinity, timeoutMs = 120_000): Promise<Listing> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    let bytes = 0;
    let capped = false;
    // Leaving the loop early cancels the stream: the rest of the answer is never read.
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (bytes > cap) {
        capped = true;
        break;
      }
    }
    return { path, status: res.status, bytes, capped, ms: performance.now() - started };
  } catch (error) {
    return { path, status: 0, bytes: 0, capped: false, ms: performance.now() - started, error: String((error as Error).cause ?? error) };
  }
}

/** Runs `task` for 0…count-1 with at most `concurrency` in flight, stopping early once `stop()` says so. */
export async function pool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stop()) {
      const i = next++;
      await task(i);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return done;
}
