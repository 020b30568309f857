/**
 * HTTP/1.1 on a bare TCP socket, for tests of what Node's HTTP client hides: pipelining, bytes left
 * unread in the server's buffers, malformed requests, answers that arrive before the body is sent.
 * Nothing here waits on time: every promise settles on a socket event.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
}

/** What a socket received: the complete responses in order, and how the socket ended. */
export class RawConnection {
  readonly responses: RawResponse[] = [];
  /** `end` (the server closed cleanly), `error: <code>` (a reset), or undefined while open. */
  ended: string | undefined;
  /** Every byte received, complete responses or not (a truncated one is only here). */
  private readonly chunks: Buffer[] = [];
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.ended ??= `error: ${error.code ?? error.message}`;
      this.wake();
    });
    socket.on('close', () => {
      this.ended ??= 'end';
      this.wake();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes now: on loopback the bytes are in the server's receive buffer when this returns. */
  send(text: string): void {
    this.socket.write(text);
  }

  /** Resolves once `count` responses have arrived in all, or the socket has ended (check `responses`). */
  async waitFor(count: number): Promise<RawResponse[]> {
    while (this.responses.length < count && this.ended === undefined) await new Promise<void>((wake) => this.waiters.push(wake));
    return this.responses;
  }

  /** Resolves once the socket is closed; `ended` says how. */
  async closed(): Promise<string> {
    while (this.ended === undefined) await new Promise<void>((wake) => this.waiters.push(wake));
    return this.ended;
  }

  get received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private parse(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const { status, headers } = parseHead(this.buffer.subarray(0, end));
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.responses.push({ status, headers, body });
    }
  }
}

/** The status line's code and the headers (lower-cased names) of a response head. */
export function parseHead(head: Buffer): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = head.toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers };
}

/** A request as bytes, with a JSON `body` and its Content-Length when given. */
export function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): string {
  const text = body === undefined ? '' : JSON.stringify(body);
  const sized = body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) };
  const lines = Object.entries({ Host: '127.0.0.1', ...headers, ...sized }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${text}`;
}

/** A GET request as bytes. */
export function rawGet(path: string, headers: Record<string, string> = {}): string {
  return rawRequest('GET', path, headers);
}
