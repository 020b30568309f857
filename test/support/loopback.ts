/**
 * Helpers for tests that talk to a real socket (`startServer`, port 0): a bounded-concurrency runner
 * and `send`, which sends a generated request on a connection of its own. Counts are bounded;
 * nothing here sleeps or measures time.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { MockServer } from '../../src/server.js';
import type { GeneratedRequest } from './requests.js';

export interface LoopbackResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Runs `task` over `items` with at most `concurrency` in flight; results keep the input order. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

export interface SendOptions {
  /** Bearer token for `credential: 'own'` (and 'readOnly' when `readOnlyToken` is given). */
  token: string;
  readOnlyToken?: string;
  headers?: Record<string, string>;
}

function prepare(request: GeneratedRequest, options: SendOptions): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...request.headers, ...options.headers };
  const token = request.credential === 'own' ? options.token : request.credential === 'readOnly' ? options.readOnlyToken : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (request.body && 'json' in request.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body.json);
  } else if (request.body) {
    headers['content-type'] = request.body.contentType;
    body = request.body.raw;
  }
  return { headers, body };
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One request on a connection of its own (`agent: false`, no keep-alive). A pooled keep-alive
 * socket can be closed by the server's idle timer just as the client reuses it, which a loaded
 * machine makes likely ("fetch failed … other side closed" in the soak).
 */
function openRequest(mock: MockServer, request: GeneratedRequest, options: SendOptions) {
  const { headers, body } = prepare(request, options);
  const bytes = Buffer.from(body ?? '');
  const { hostname, port } = new URL(mock.url);
  const outgoing = httpRequest({
    hostname,
    port,
    method: request.method,
    path: request.url,
    agent: false,
    headers: { ...headers, 'content-length': String(bytes.length) },
  });
  const response = new Promise<LoopbackResponse>((resolve, reject) => {
    outgoing.on('error', reject);
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: incoming.statusCode ?? 0, headers: toHeaders(incoming.headers), text, body: parse(text) });
      });
    });
  });
  return { outgoing, bytes, response };
}

export function send(mock: MockServer, request: GeneratedRequest, options: SendOptions): Promise<LoopbackResponse> {
  const { outgoing, bytes, response } = openRequest(mock, request, options);
  outgoing.end(bytes);
  return response;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

/**
 * Sends all `requests` so that they are in flight together: each sends its headers and half of its
 * body, and only once the server has begun every one of them do the bodies complete. Requests that
 * finish in one piece would otherwise be served one after another (the sandbox's work is
 * synchronous), and a race could never be lost.
 */
export async function sendTogether(
  mock: MockServer,
  requests: readonly GeneratedRequest[],
  options: SendOptions,
): Promise<LoopbackResponse[]> {
  let begun = 0;
  let allBegun!: () => void;
  const everyoneIn = new Promise<void>((resolve) => (allBegun = resolve));
  const onRequest = () => {
    begun += 1;
    if (begun === requests.length) allBegun();
  };
  mock.server.on('request', onRequest);
  try {
    const pending = requests.map((request) => {
      const { outgoing, bytes, response } = openRequest(mock, request, options);
      const half = Math.floor(bytes.length / 2);
      outgoing.flushHeaders();
      if (half > 0) outgoing.write(bytes.subarray(0, half));
      return { outgoing, rest: bytes.subarray(half), response };
    });
    await everyoneIn;
    for (const { outgoing, rest } of pending) outgoing.end(rest);
    return await Promise.all(pending.map((p) => p.response));
  } finally {
    mock.server.off('request', onRequest);
  }
}
