/**
 * With the journal on, an answer decided before the body is needed (a 401) is sent at
 * once; the journal reads the body afterwards, so its entry still shows what was sent.
 */
import { describe, expect, it } from 'vitest';
import { bearer, KEYS, startServer } from '../support/harness.js';
import { RawConnection, rawGet } from '../support/raw-http.js';

const BODY = JSON.stringify({ name: 'sent late' });

describe('the journal never holds back an early answer', () => {
  it('answers a 401 while the body is still on its way, and journals the body once it arrives', async () => {
    const mock = await startServer();
    try {
      const connection = await RawConnection.open(mock.port);
      connection.send(
        `POST /v1/auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 4)}`,
      );
      // Only the headers and 4 bytes were sent: the answer must come without the rest.
      const [early] = await connection.waitFor(1);
      expect(early?.status).toBe(401);
      expect(JSON.parse(early!.body).error.code).toBe('authentication_required');
      // The rest of the body, then another request on the same connection: it is answered after the
      // first request's body has been read.
      connection.send(BODY.slice(4) + rawGet('/v1/status', bearer(KEYS.free)));
      const responses = await connection.waitFor(2);
      expect(responses[1]?.status).toBe(200);
      const journal = (await (await fetch(`${mock.url}/__admin/requests`)).json()) as { data: Array<{ path: string }> };
      const entry = journal.data.find((e) => e.path === '/v1/auth/keys');
      expect(entry).toMatchObject({ status: 401, method: 'POST', body: { name: 'sent late' } });
      connection.socket.destroy();
    } finally {
      await mock.close();
    }
  });
});
