/**
 * One attempt over real HTTP: POST the payload; a non-2xx status, a connection error or no complete
 * answer within `timeoutMs` is a failure (contract §4.3). The whole attempt (connecting, the status,
 * and reading the answer) runs within that one deadline, so an attempt over it is never recorded
 * `succeeded`. `abort` ends the attempt at once (world reset, close).
 *
 * The receiver's answer is read only so its connection can end cleanly, and never kept: at most
 * `responseLimit` bytes, raw (`Accept-Encoding: identity` is asked, and a compressed answer is never
 * inflated: node:http leaves bodies as sent, unlike fetch); past it the connection is closed. So a
 * receiver streaming gigabytes, or a small gzip answer that would inflate to them, costs the sandbox
 * one socket buffer. An answer read to its end leaves its connection to the hub's keep-alive pool
 * (`Connections`), as fetch did, so a busy account does not open a connection per delivery; any
 * other end of an attempt (a limit, a timeout, an error, an abort) destroys the connection.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The keep-alive pools of one hub: closed with it, so no socket outlives a reset or a close. */
export class Connections {
  // Bounded like the fetch it replaced (undici closes idle sockets after 4 s): a tenant with many
  // receivers that never close their end cannot pin the process's file descriptors.
  private static readonly OPTIONS = { keepAlive: true, timeout: 4_000, maxFreeSockets: 64, maxTotalSockets: 512 };
  readonly http = new HttpAgent(Connections.OPTIONS);
  readonly https = new HttpsAgent(Connections.OPTIONS);

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendInput {
  url: string;
  /** The body: its bytes as signed, or a text sent as UTF-8. */
  payload: string | Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Bytes of the answer's body read at most; the rest is never read. */
  responseLimit: number;
  abort: AbortSignal;
  /** Real-time source for `duration_ms` (the sandbox's, injectable). */
  realTime: () => number;
  /** Keep-alive pools; without them each attempt has a connection of its own. */
  connections?: Connections;
}

const CANCELLED = 'cancelled: the sandbox was reset or closed';

export function sendAttempt(input: SendInput): Promise<AttemptOutcome> {
  const started = input.realTime();
  const body = typeof input.payload === 'string' ? Buffer.from(input.payload) : input.payload;
  const url = new URL(input.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let request: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    let settled = false;
    const finish = (error: string | null, readToEnd = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.abort.removeEventListener('abort', onAbort);
      // Frees the socket at once, whatever the receiver still sends never read; an answer read to its
      // end leaves a clean connection to the pool.
      if (!readToEnd) request?.destroy();
      const statusCode = response?.statusCode ?? null;
      resolve({ statusCode, error, durationMs: input.realTime() - started });
    };
    /** The answer's status decides, once it is read as far as the sandbox reads it. */
    const answered = (readToEnd: boolean) => {
      const status = response!.statusCode!;
      finish(status >= 200 && status < 300 ? null : `receiver answered ${status}`, readToEnd);
    };
    const onAbort = () => finish(CANCELLED);
    const timer = setTimeout(
      () => finish(response ? `answer not complete within ${input.timeoutMs} ms` : `no answer within ${input.timeoutMs} ms`),
      input.timeoutMs,
    );
    if (input.abort.aborted) return finish(CANCELLED);
    input.abort.addEventListener('abort', onAbort, { once: true });
    try {
      request = send(url, {
        method: 'POST',
        agent: input.connections ? (url.protocol === 'https:' ? input.connections.https : input.connections.http) : false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'accept-encoding': 'identity',
          'user-agent': 'creator-commerce-mock-webhooks',
          ...input.headers,
        },
      });
    } catch (error) {
      return finish(`connection error: ${(error as Error).message}`);
    }
    request.on('error', (error: NodeJS.ErrnoException) => finish(`connection error: ${error.code ?? error.message}`));
    request.on('response', (res) => {
      response = res;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > input.responseLimit) answered(false);
      });
      res.on('end', () => answered(true));
      res.on('error', (error: NodeJS.ErrnoException) => finish(`connection error: ${error.code ?? error.message}`));
      res.on('close', () => {
        if (!res.complete) finish('connection error: the answer was cut short');
      });
    });
    request.end(body);
  });
}
