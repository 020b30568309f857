/**
 * A real webhook receiver for tests: `http.createServer` on a loopback port that records every POST
 * (headers and the raw body, as a verifier needs them) and answers what the test says, per arrival:
 * a status, or `'hang'` (the socket is held, no answer, until the receiver closes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; created_at: string; account_id: string; data: { object: Record<string, unknown> } };
}

export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** Resolves once `count` arrivals in all have come (at once if they already have). */
  received(count: number): Promise<Arrival[]>;
  close(): Promise<void>;
}

/** `answer(n)` decides the answer to the n-th arrival (0-based); 204 by default. */
export async function startReceiver(answer: (n: number) => Answer = () => 204): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const waiters: Array<{ count: number; resolve: (all: Arrival[]) => void }> = [];
  const held = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const n = arrivals.length;
      arrivals.push({ headers, body, json: JSON.parse(body) as Arrival['json'] });
      for (const waiter of [...waiters]) {
        if (arrivals.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(arrivals.slice());
        }
      }
      const reply = answer(n);
      if (reply === 'hang') {
        held.add(res);
        return;
      }
      res.statusCode = reply;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    received: (count) =>
      arrivals.length >= count ? Promise.resolve(arrivals.slice()) : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
