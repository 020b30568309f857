/**
 * Contract §4.1: a request belongs to the account state it started in. A `POST /v1/auth/keys` whose
 * body is still arriving when its account is reset or deleted writes its key into the state it
 * captured, which the reset or delete has discarded: the key never authenticates, the account's
 * live keys are unchanged, and nothing answers 5xx. The body is sent in two parts on a real socket,
 * with the admin call in between, as a client on a slow link would.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { bearer, startServer } from '../support/harness.js';
import { eventually } from '../support/eventually.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

interface Answer {
  status: number;
  body: Record<string, any>;
}

/** Reads a whole answer as JSON. */
function answerOf(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    res.on('error', reject);
  });
}

/**
 * Sends the request's headers and the first `split` bytes of `body`, waits until the server is
 * reading that body (a `data` listener on the request), runs `between`, then sends the rest.
 */
async function splitBody(
  server: MockServer,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  between: () => Promise<void>,
  split = 4,
): Promise<Answer> {
  const reading = new Promise<IncomingMessage>((resolve) => server.server.once('request', resolve));
  const req = httpRequest(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) } });
  const answered = new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
  req.write(body.subarray(0, split));
  const incoming = await reading;
  await eventually(() => expect(incoming.listenerCount('data')).toBeGreaterThan(0));
  await between();
  req.end(body.subarray(split));
  return answerOf(await answered);
}

async function createTenant(server: MockServer): Promise<{ id: string; token: string }> {
  const res = await fetch(`${server.url}/__admin/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as { account: { id: string }; api_key: { token: string } };
  return { id: body.account.id, token: body.api_key.token };
}

async function status(server: MockServer, token: string): Promise<number> {
  return (await fetch(`${server.url}/v1/auth/keys`, { headers: bearer(token) })).status;
}

async function keyIds(server: MockServer, accountId: string): Promise<string[]> {
  const res = await fetch(`${server.url}/__admin/accounts/${accountId}`);
  const body = (await res.json()) as { state: { api_keys: Array<{ id: string }> } };
  return body.state.api_keys.map((key) => key.id);
}

const bodies = {
  plain: { headers: { 'Content-Type': 'application/json' }, bytes: Buffer.from(JSON.stringify({ name: 'made while reset' })) },
  gzip: {
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    bytes: gzipSync(Buffer.from(JSON.stringify({ name: 'made while reset' }))),
  },
} as const;

describe('contract §4.1: POST /v1/auth/keys in flight while its account is reset or deleted', () => {
  for (const [coding, { headers, bytes }] of Object.entries(bodies)) {
    it(`contract §4.1: a key made during an account reset (${coding} body) does not authenticate afterwards; the account's keys are those of its birth`, async () => {
      mock = await startServer();
      const server = mock;
      const tenant = await createTenant(server);
      const born = await keyIds(server, tenant.id);
      const answer = await splitBody(server, '/v1/auth/keys', { ...headers, ...bearer(tenant.token) }, bytes, async () => {
        const reset = await fetch(`${server.url}/__admin/accounts/${tenant.id}/reset`, { method: 'POST' });
        expect(reset.status).toBe(200);
      });
      // It finishes against the state it started in (README "Account delete"): a 201 whose key is gone with it.
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(await status(server, answer.body.token)).toBe(401);
      expect(await keyIds(server, tenant.id)).toEqual(born);
      expect(await status(server, tenant.token)).toBe(200);
    });

    it(`contract §4.1: a key made while its account is deleted (${coding} body) answers without a 5xx and never authenticates`, async () => {
      mock = await startServer();
      const server = mock;
      const tenant = await createTenant(server);
      const answer = await splitBody(server, '/v1/auth/keys', { ...headers, ...bearer(tenant.token) }, bytes, async () => {
        const deleted = await fetch(`${server.url}/__admin/accounts/${tenant.id}`, { method: 'DELETE' });
        expect(deleted.status).toBe(200);
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(await status(server, answer.body.token)).toBe(401);
      expect(await status(server, tenant.token)).toBe(401);
      expect((await fetch(`${server.url}/__admin/accounts/${tenant.id}`)).status).toBe(404);
    });
  }
});

describe('spec §8 and contract §4.1: an Idempotency-Key of a request in flight while its account is reset', () => {
  it('is not remembered in the reset account: a retry after the reset runs anew', async () => {
    mock = await startServer();
    const server = mock;
    const tenant = await createTenant(server);
    const { headers, bytes } = bodies.plain;
    const keyed = { ...headers, ...bearer(tenant.token), 'Idempotency-Key': 'k-race' };
    const first = await splitBody(server, '/v1/auth/keys', keyed, bytes, async () => {
      expect((await fetch(`${server.url}/__admin/accounts/${tenant.id}/reset`, { method: 'POST' })).status).toBe(200);
    });
    expect(first.status).toBe(201);
    const retry = await fetch(`${server.url}/v1/auth/keys`, { method: 'POST', headers: keyed, body: bytes });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const made = (await retry.json()) as { id: string; token: string };
    expect(made.id).not.toBe(first.body.id);
    expect(await status(server, made.token)).toBe(200);
  });
});
