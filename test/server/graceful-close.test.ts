/**
 * Contract §1 "in-flight requests finish": closing answers every request already
 * received (the last one on each connection with `Connection: close`), then closes; requests still
 * unanswered when the grace period ends are cut and counted. No timing is asserted: requests are
 * made "received but not yet parsed" by writing them in the same synchronous turn as `close()`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli.js';
import { bearer, KEYS, startServer } from '../support/harness.js';
import { RawConnection, rawGet } from '../support/raw-http.js';

const STATUS = rawGet('/v1/status', bearer(KEYS.free));
/** Headers and part of a body: a request in flight that never completes. */
const NEVER_COMPLETES = `POST /v1/auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEYS.free}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`;

let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

/** A keep-alive connection that has had one answer: accepted by the server, and idle. */
async function idleConnection(port: number): Promise<RawConnection> {
  const connection = await RawConnection.open(port);
  connection.send(STATUS);
  const [first] = await connection.waitFor(1);
  expect(first?.headers.connection).toBe('keep-alive');
  return connection;
}

describe('closing answers every request already received', () => {
  it('answers 50 requests received on idle keep-alive connections but not yet parsed when close() starts', async () => {
    const mock = await startServer();
    const connections = await Promise.all(Array.from({ length: 50 }, () => idleConnection(mock.port)));
    // Same synchronous turn: the bytes sit in the server's socket buffers, unread, when close() starts.
    for (const connection of connections) connection.send(STATUS);
    const closed = mock.close();
    for (const connection of connections) {
      const responses = await connection.waitFor(2);
      expect(
        responses.map((r) => r.status),
        connection.ended,
      ).toEqual([200, 200]);
      expect(responses[1]!.headers.connection).toBe('close');
      expect(await connection.closed()).toBe('end');
    }
    expect(await closed).toEqual({ cut: 0 });
  });

  it('answers every pipelined request on a connection, and only the last says Connection: close', async () => {
    const mock = await startServer();
    const connection = await idleConnection(mock.port);
    connection.send(STATUS + rawGet('/__admin/health') + STATUS);
    const closed = mock.close();
    const responses = await connection.waitFor(4);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(responses.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'close']);
    expect(await closed).toEqual({ cut: 0 });
  });

  it('closes idle connections and stops accepting new ones', async () => {
    const mock = await startServer();
    const connection = await idleConnection(mock.port);
    expect(await mock.close()).toEqual({ cut: 0 });
    expect(await connection.closed()).toBe('end');
    await expect(RawConnection.open(mock.port)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('cuts a request still unanswered when the grace period ends, and counts it', async () => {
    const mock = await startServer({ shutdownGrace: 50 });
    const connection = await idleConnection(mock.port);
    connection.send(NEVER_COMPLETES);
    expect(await mock.close()).toEqual({ cut: 1 });
    await connection.closed();
    expect(connection.responses).toHaveLength(1);
  });

  it('returns the same report to every caller of close()', async () => {
    const mock = await startServer();
    const [a, b] = await Promise.all([mock.close(), mock.close()]);
    expect(a).toEqual({ cut: 0 });
    expect(b).toBe(a);
  });
});

describe('contract §1: closing ends the artificial delay of slow-responses and answers', () => {
  it('contract §1, §3.5: a request waiting in a 5 s slow-responses delay when close() starts is answered, not cut', async () => {
    const mock = await startServer({ scenarios: ['slow-responses;delay_ms=5000'] });
    const received = new Promise<void>((resolve) => mock.server.once('request', () => resolve()));
    const connection = await RawConnection.open(mock.port);
    connection.send(STATUS);
    await received;
    // The middlewares up to the delay run in the turn that received the request.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await mock.close()).toEqual({ cut: 0 });
    const [answer] = await connection.waitFor(1);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.connection).toBe('close');
  });

  it('contract §1, §3.5: a delay that starts while the server closes does not wait either', async () => {
    const mock = await startServer({ scenarios: ['slow-responses;delay_ms=30000'] });
    const connection = await RawConnection.open(mock.port);
    // Sent in the same turn as close(): read while draining, its delay begins after shutdown did.
    connection.send(STATUS);
    expect(await mock.close()).toEqual({ cut: 0 });
    expect((await connection.waitFor(1))[0]?.status).toBe(200);
  });
});

describe('the CLI on SIGTERM closes the same way', () => {
  it('says in its exit line how many requests the grace period cut, and exits 0', async () => {
    running = await startCli(['--port', '0', '--shutdown-grace', '50']);
    const port = Number(new URL(running.url).port);
    const connection = await idleConnection(port);
    connection.send(NEVER_COMPLETES);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).toMatch(/stopped \(SIGTERM\); 1 request cut after the 50 ms grace period/);
  });

  it('says nothing was cut when every request was answered', async () => {
    running = await startCli(['--port', '0']);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).toMatch(/stopped \(SIGTERM\)\n/);
  });

  it('contract §1: on SIGTERM a request waiting in slow-responses (delay_ms 5000) is answered and the CLI exits 0, nothing cut', async () => {
    running = await startCli(['--port', '0', '--scenario', 'slow-responses;delay_ms=5000']);
    const port = Number(new URL(running.url).port);
    const connection = await RawConnection.open(port);
    connection.send(STATUS);
    // The request is in its delay once the server has its bytes; the journal lists it only when answered.
    const cli = running;
    const answered = connection.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    cli.child.kill('SIGTERM');
    expect((await answered)[0]?.status).toBe(200);
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/stopped \(SIGTERM\)\n/);
  });

  it('refuses a --shutdown-grace that is not a number of milliseconds', async () => {
    const { runCli } = await import('../support/cli.js');
    const result = await runCli(['--shutdown-grace', '1.5s']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^creator-commerce-mock: --shutdown-grace: expected milliseconds/);
  });
});
