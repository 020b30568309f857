/**
 * Contract §4.2: the transport faults, pinned at the socket level with a raw `node:net`
 * client (what the connection carried and how it ended) and `node:http` (what a client library sees).
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { ACCOUNTS, bearer, client, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { mockServers } from '../support/protocol.js';
import { parseHead, RawConnection, rawRequest } from '../support/raw-http.js';
import { eventually } from '../support/eventually.js';

/** What a connection carried (every byte) and how it ended (`end`: a FIN; `error: ECONNRESET`: a reset). */
async function exchange(
  port: number,
  text: string,
  whileOpen?: (connection: RawConnection) => void,
): Promise<{ bytes: Buffer; ending: string }> {
  const connection = await RawConnection.open(port);
  connection.send(text);
  whileOpen?.(connection);
  const ending = await connection.closed();
  return { bytes: connection.received, ending };
}

function parseResponse(bytes: Buffer) {
  const end = bytes.indexOf('\r\n\r\n');
  return { ...parseHead(bytes.subarray(0, end)), body: bytes.subarray(end + 4) };
}

const auth = { Authorization: `Bearer ${KEYS.free}` };

async function apiKeyCount(mock: MockServer): Promise<number> {
  const snapshot = (await mock.admin.accounts.get(ACCOUNTS.free)) as unknown as { state: { api_keys: unknown[] } };
  return snapshot.state.api_keys.length;
}

async function lastEntry(mock: MockServer): Promise<Record<string, any>> {
  const { data } = await mock.admin.requests.list({ account_id: ACCOUNTS.free, limit: 1 });
  return data[0] as Record<string, any>;
}

describe('contract §4.2: each fault at the socket level', () => {
  const start = mockServers();

  it('contract §4.2: connection-reset sends no byte and resets the connection (ECONNRESET); before, nothing changes', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const active = await mock.admin.scenarios.activate({ name: 'connection-reset', account_id: ACCOUNTS.free, times: 1 });
    const before = await apiKeyCount(mock);
    const got = await exchange(mock.port, rawRequest('POST', '/v1/auth/keys', auth, {}));
    expect(got.bytes.length).toBe(0);
    expect(got.ending).toBe('error: ECONNRESET');
    expect(await apiKeyCount(mock)).toBe(before);
    expect(await lastEntry(mock)).toMatchObject({ status: null, fault: 'connection-reset', scenario_ids: [active.id], body: {} });
  });

  it('contract §4.2: empty-response reads the request, then closes cleanly (a FIN) with zero bytes sent', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'empty-response', account_id: ACCOUNTS.free, times: 1 });
    const got = await exchange(mock.port, rawRequest('POST', '/v1/auth/keys', auth, { name: 'x'.repeat(10_000) }));
    expect([got.bytes.length, got.ending]).toEqual([0, 'end']);
    // The request was read: the journal has its whole body.
    expect(await lastEntry(mock)).toMatchObject({ status: null, fault: 'empty-response', body: { name: 'x'.repeat(10_000) } });
  });

  it('contract §4.2: truncated-response sends the status line and headers with the full Content-Length, half the body, then closes', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'truncated-response', account_id: ACCOUNTS.free, times: 1, params: { when: 'after' } });
    const got = await exchange(mock.port, rawRequest('GET', '/v1/status', auth));
    const { status, headers, body } = parseResponse(got.bytes);
    expect(got.ending).toBe('end');
    expect(status).toBe(200);
    const full = Number(headers['content-length']);
    expect(body.length).toBe(Math.floor(full / 2));
    expect(body.length).toBeGreaterThan(0);
    expect(headers['request-id']).toMatch(/^req_/);
    expect(await lastEntry(mock)).toMatchObject({ status: 200, fault: 'truncated-response' });
  });

  it('contract §4.2: truncated-response before the operation cuts a 500 internal_error (the operation never ran)', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'truncated-response', account_id: ACCOUNTS.free, times: 1 });
    const before = await apiKeyCount(mock);
    const got = await exchange(mock.port, rawRequest('POST', '/v1/auth/keys', auth, {}));
    const { status, headers, body } = parseResponse(got.bytes);
    expect(status).toBe(500);
    expect(body.length).toBeLessThan(Number(headers['content-length']));
    expect(body.toString()).toContain('{"error":{"type":');
    expect(await apiKeyCount(mock)).toBe(before);
    expect(await lastEntry(mock)).toMatchObject({ status: 500, fault: 'truncated-response' });
  });

  it('contract §4.2: no-response holds the connection with nothing sent, then closes it after after_ms; its timer is gone after', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'no-response', account_id: ACCOUNTS.free, times: 1, params: { after_ms: 300 } });
    let held = 0;
    const got = await exchange(mock.port, rawRequest('GET', '/v1/status', auth), () => {
      // While the client waits, the sandbox holds exactly this connection.
      void eventually(() => expect(mock.app.heldConnections.size).toBe(1)).then(() => (held += 1));
    });
    expect([got.bytes.length, got.ending, held]).toEqual([0, 'end', 1]);
    expect(mock.app.heldConnections.size).toBe(0);
    expect(await lastEntry(mock)).toMatchObject({ status: null, fault: 'no-response' });
  });

  it('contract §4.2: a client that gives up first clears the no-response timer; the sandbox stays usable', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'no-response', account_id: ACCOUNTS.free, times: 1, params: { after_ms: 120_000 } });
    await exchange(mock.port, rawRequest('GET', '/v1/status', auth), (connection) => {
      void eventually(() => expect(mock.app.heldConnections.size).toBe(1)).then(() => connection.socket.destroy());
    });
    await eventually(() => expect(mock.app.heldConnections.size).toBe(0));
    expect((await fetch(`${mock.apiUrl}/status`, { headers: auth })).status).toBe(200);
  });

  it('contract §4.2: closing the server closes a held connection at once, and cuts no request', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'no-response', params: { after_ms: 120_000 } });
    const got = exchange(mock.port, rawRequest('GET', '/v1/status', auth));
    await eventually(() => expect(mock.app.heldConnections.size).toBe(1));
    expect(await mock.close()).toEqual({ cut: 0 });
    expect((await got).bytes.length).toBe(0);
  });

  it('contract §4.2: a faulted keep-alive connection does not disturb another connection’s requests', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'connection-reset', operation_id: 'createApiKey' });
    // One connection keeps two pipelined reads going while another gets reset.
    const keepAlive = { ...auth, Connection: 'keep-alive' };
    const calm = exchange(
      mock.port,
      rawRequest('GET', '/v1/status', keepAlive) + rawRequest('GET', '/v1/status', { ...auth, Connection: 'close' }),
    );
    const faulted = exchange(mock.port, rawRequest('POST', '/v1/auth/keys', keepAlive, {}));
    const [calmResult, faultedResult] = await Promise.all([calm, faulted]);
    expect(faultedResult.ending).toBe('error: ECONNRESET');
    const text = calmResult.bytes.toString();
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(calmResult.ending).toBe('end');
  });

  it('contract §4.2: Prefer: scenario=<fault> faults that request only; Prefer takes no probability', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const got = await exchange(mock.port, rawRequest('GET', '/v1/status', { ...auth, Prefer: 'scenario=empty-response' }));
    expect([got.bytes.length, got.ending]).toEqual([0, 'end']);
    expect(await lastEntry(mock)).toMatchObject({ fault: 'empty-response', scenario_ids: ['prefer:empty-response'] });
    const refused = await fetch(`${mock.apiUrl}/status`, { headers: { ...auth, Prefer: 'scenario=empty-response; probability=0.5' } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: 'bad_request', param: 'Prefer' });
  });
});

describe('contract §4.2: faults combined, and under createApp()', () => {
  const start = mockServers();

  it('contract §4.2: truncated-response before the operation cuts the answer another scenario gives (a 429), not a 500', async () => {
    const mock = await start({ clock: FROZEN_AT });
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: ACCOUNTS.free, params: { retry_after: 3 } });
    await mock.admin.scenarios.activate({ name: 'truncated-response', account_id: ACCOUNTS.free });
    const got = await exchange(mock.port, rawRequest('GET', '/v1/status', auth));
    const { status, headers, body } = parseResponse(got.bytes);
    expect([status, headers['retry-after']]).toEqual([429, '3']);
    expect(body.length).toBe(Math.floor(Number(headers['content-length']) / 2));
  });

  it("contract §4.2: with createApp() and supertest (no server of ours) a fault still cuts the request's socket: the client gets no response", async () => {
    const c = client(makeApp());
    for (const name of ['connection-reset', 'empty-response']) {
      const error = await c
        .get('/v1/status')
        .set(bearer(KEYS.free))
        .set('Prefer', `scenario=${name}`)
        .then(
          () => undefined,
          (failure: NodeJS.ErrnoException) => failure.code ?? failure.message,
        );
      expect(error).toBe('ECONNRESET');
    }
    expect((await c.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });
});

describe('contract §4.2: when "after": the operation runs, the answer is lost, an idempotent retry replays it', () => {
  const start = mockServers();

  for (const name of ['connection-reset', 'empty-response', 'truncated-response', 'no-response'] as const) {
    it(`contract §4.2: ${name} after the operation, then a retry with the same Idempotency-Key: exactly one record, the replay answers`, async () => {
      const mock = await start({ clock: FROZEN_AT });
      const params = name === 'no-response' ? { when: 'after', after_ms: 50 } : { when: 'after' };
      const active = await mock.admin.scenarios.activate({ name, account_id: ACCOUNTS.free, times: 1, params });
      const before = await apiKeyCount(mock);
      const headers = { ...auth, 'Idempotency-Key': `lost-${name}`, 'Content-Type': 'application/json' };
      // node:http sees the lost answer as an error of the request or of the body.
      const lost = await new Promise<string>((resolve) => {
        const req = httpRequest(
          { port: mock.port, host: '127.0.0.1', method: 'POST', path: '/v1/auth/keys', headers, agent: false },
          (res) => {
            res.on('error', (error) => resolve(`body: ${error.message}`));
            res.on('end', () => resolve(`complete ${res.statusCode}`));
            res.resume();
          },
        );
        req.on('error', (error) => resolve(`request: ${error.message}`));
        req.end(JSON.stringify({ name: 'once' }));
      });
      expect(lost).not.toMatch(/^complete/);
      expect(await apiKeyCount(mock)).toBe(before + 1);
      const retry = await fetch(`${mock.apiUrl}/auth/keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'once' }) });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await apiKeyCount(mock)).toBe(before + 1);
      const { data } = await mock.admin.requests.list({ account_id: ACCOUNTS.free, limit: 2 });
      expect(data.map((e: Record<string, any>) => [e.status, e.fault, e.idempotent_replayed, e.scenario_ids])).toEqual([
        [201, null, true, []],
        [201, name, false, [active.id]],
      ]);
    });
  }
});
