/**
 * Requests Node's HTTP parser refuses (a bad method, a malformed header, headers over
 * the size limit) are answered in the error envelope with a `Request-Id`, like every other error,
 * and the server keeps serving.
 */
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { bearer, FROZEN_AT, KEYS, startServer } from '../support/harness.js';
import { mockServers } from '../support/protocol.js';
import { RawConnection, rawGet } from '../support/raw-http.js';

const idNumber = (id: string | undefined) => Number(/^req_(\d+)$/.exec(id ?? '')?.[1]);

describe('parser errors are answered in the envelope', () => {
  it.each([
    ['a bad method', 'FO@O /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'bad_request'],
    ['a malformed header name', 'GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n', 400, 'bad_request'],
    ['a bad HTTP version', 'GET /v1/status HTTP/9.x\r\nHost: 127.0.0.1\r\n\r\n', 400, 'bad_request'],
    [
      'headers over the size limit',
      `GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ])(
    'answers %s in the envelope (its status and code), with a Request-Id from the sandbox, and closes',
    async (_what, raw, status, code) => {
      const mock = await startServer();
      try {
        const before = await RawConnection.open(mock.port);
        before.send(rawGet('/v1/status', bearer(KEYS.free)));
        const [first] = await before.waitFor(1);

        const connection = await RawConnection.open(mock.port);
        connection.send(raw);
        const [answer] = await connection.waitFor(1);
        expect(answer?.status).toBe(status);
        expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer?.headers.connection).toBe('close');
        const body = JSON.parse(answer!.body);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'type']);
        expect(body.error).toMatchObject({ type: 'invalid_request_error', code });
        // The sandbox's own counter: the id after the previous request's, before the next one's.
        expect(idNumber(answer?.headers['request-id'])).toBe(idNumber(first?.headers['request-id']) + 1);
        expect(answer?.headers['x-request-id']).toBe(answer?.headers['request-id']);
        expect(await connection.closed()).toBe('end');

        before.send(rawGet('/v1/status', bearer(KEYS.free)));
        const [, next] = await before.waitFor(2);
        expect(next?.status).toBe(200);
        expect(idNumber(next?.headers['request-id'])).toBe(idNumber(answer?.headers['request-id']) + 1);
        before.socket.destroy();
      } finally {
        await mock.close();
      }
    },
  );
});

describe('what else Node would answer bare is answered in the envelope, or served', () => {
  const start = mockServers();
  const envelopeOf = (answer: { body: string } | undefined) => JSON.parse(answer!.body).error as { type: string; code: string };

  /** Sends `raw` on a new connection of a fresh server; its first answer and the connection. */
  async function firstAnswer(raw: string, mock?: MockServer) {
    const server = mock ?? (await start({ clock: FROZEN_AT }));
    const connection = await RawConnection.open(server.port);
    connection.send(raw);
    const [answer] = await connection.waitFor(1);
    return { answer, connection, mock: server };
  }

  it('an HTTP/1.1 request without Host gets a 400 in the envelope with a Request-Id (RFC 9112 §3.2), and HTTP/1.0 without one is served', async () => {
    const { answer, connection, mock } = await firstAnswer(`GET /v1/status HTTP/1.1\r\nAuthorization: Bearer ${KEYS.free}\r\n\r\n`);
    expect(answer?.status).toBe(400);
    expect(answer?.headers['request-id']).toMatch(/^req_\d+$/);
    expect(envelopeOf(answer)).toMatchObject({ type: 'invalid_request_error', code: 'bad_request' });
    connection.socket.destroy();

    const old = await firstAnswer(`GET /v1/status HTTP/1.0\r\nAuthorization: Bearer ${KEYS.free}\r\n\r\n`, mock);
    expect(old.answer?.status).toBe(200);
    old.connection.socket.destroy();
  });

  it('an Expect other than 100-continue is served as if absent (RFC 9110 §10.1.1 lets a server ignore it), never a bare 417', async () => {
    const { answer, connection } = await firstAnswer(
      `GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something\r\nAuthorization: Bearer ${KEYS.free}\r\n\r\n`,
    );
    expect(answer?.status).toBe(200);
    expect(answer?.headers['request-id']).toMatch(/^req_\d+$/);
    connection.socket.destroy();
  });

  it.each([
    ['CONNECT (this is no proxy)', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
    [
      'a malformed chunk in the body of the request being read',
      `POST /v1/auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEYS.free}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ],
  ])('%s gets a 400 in the envelope with a Request-Id, then the connection closes (never dropped without a word)', async (_what, raw) => {
    const { answer, connection } = await firstAnswer(raw);
    expect(answer?.status).toBe(400);
    expect(answer?.headers['request-id']).toMatch(/^req_\d+$/);
    expect(envelopeOf(answer)).toMatchObject({ code: 'bad_request' });
    expect(await connection.closed()).toBe('end');
  });
});
