/**
 * One request through an app's callback over an in-memory socket: no network, no load generator.
 * Shared by the in-process cost (bench/in-process.ts) and the memory soak (bench/memory.ts).
 */
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

class NullSocket extends Duplex {
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: unknown, done: () => void): void {
    done();
  }
}

export interface InMemoryRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as the body, with its Content-Length. */
  body?: string;
}

/** Resolves with the status once the response has been written. */
export function sendInMemory(handler: RequestListener, request: InMemoryRequest): Promise<number> {
  return new Promise((resolve) => {
    const socket = new NullSocket() as unknown as Socket;
    Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
    const req = new IncomingMessage(socket);
    req.method = request.method ?? 'GET';
    req.url = request.path;
    req.headers = { host: '127.0.0.1', ...request.headers };
    // A body read to its end would destroy the socket (no server owns it here) before the answer is written.
    (req as unknown as { _readableState: { autoDestroy: boolean } })._readableState.autoDestroy = false;
    if (request.body !== undefined) {
      req.headers['content-length'] = String(Buffer.byteLength(request.body));
      req.push(request.body);
    }
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.on('finish', () => resolve(res.statusCode));
    handler(req, res);
  });
}
