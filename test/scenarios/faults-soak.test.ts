/**
 * The server stays healthy after 10,000 faulted requests: no leaked sockets, no timers
 * left, and the next ordinary request is answered. Counts, not wall-clock budgets: the loop is
 * bounded by its number of requests, and what is checked is what is left over.
 */
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../support/harness.js';
import { mockServers } from '../support/protocol.js';
import { rawRequest } from '../support/raw-http.js';
import { eventually } from '../support/eventually.js';

const FAULTED_REQUESTS = 10_000;
/** Connections open at once: enough to overlap faults on the server, few enough for a shared machine. */
const CONCURRENCY = 32;

/** Every fault, before and after the operation; no-response held for 0 ms so its timer fires and is cleared. */
const PREFERS = [
  'scenario=connection-reset',
  'scenario=empty-response',
  'scenario=truncated-response',
  'scenario=no-response; after_ms=0',
  'scenario=connection-reset; when=after',
  'scenario=empty-response; when=after',
  'scenario=truncated-response; when=after',
  'scenario=no-response; after_ms=0; when=after',
];

/** Sends one request on a fresh connection; resolves when the connection is closed, however it ended. */
function faulted(port: number, text: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    // Read what arrives (a cut answer), or the end of the stream is never seen.
    socket.resume();
    socket.end(text);
  });
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('the server stays healthy after 10,000 faulted requests', () => {
  const start = mockServers();

  it('after 10,000 faulted requests of every kind, no connection, held socket or timer is left, and the server answers', async () => {
    // Rate limiting off: past the quota the limiter answers 429 before any scenario can act.
    const mock = await start({ rateLimit: 'off' });
    const timersBefore = activeTimers();
    let sent = 0;
    const worker = async () => {
      while (sent < FAULTED_REQUESTS) {
        const prefer = PREFERS[sent % PREFERS.length]!;
        sent += 1;
        await faulted(mock.port, rawRequest('GET', '/v1/status', { Authorization: `Bearer ${KEYS.paid}`, Prefer: prefer }));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(sent).toBe(FAULTED_REQUESTS);
    const connections = promisify(mock.server.getConnections.bind(mock.server));
    await eventually(async () => expect(await connections()).toBe(0));
    expect(mock.app.heldConnections.size).toBe(0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    // Every one of them was a fault, as the journal shows (its last 1,000).
    const { data } = await mock.admin.requests.list({ limit: 1000 });
    expect(data.filter((entry) => entry.fault === null)).toEqual([]);
    const res = await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: `Bearer ${KEYS.paid}` } });
    expect(res.status).toBe(200);
  });
});
