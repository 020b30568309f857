/**
 * A request belongs to the world it started in, from its first byte to its last. A
 * reset while a request's body is still arriving replaces the world; the request finishes in the
 * old one (its writes go nowhere visible) and the new world is exactly a fresh boot.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { ACCOUNTS, KEYS, startServer } from '../support/harness.js';
import { PINNED } from '../support/resources.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * Sends the headers and the first bytes of a JSON body, waits until the server is handling the
 * request (its `request` event, then a turn of the event loop so the middleware chain reaches the
 * body), and returns a function that sends the rest and resolves with the answer.
 */
async function startUpload(mock: MockServer, path: string, token: string, body: object): Promise<() => Promise<Answer>> {
  const text = JSON.stringify(body);
  const arrived = new Promise<void>((resolve) => {
    const onRequest = (req: { url?: string }) => {
      if (req.url !== path) return;
      mock.server.off('request', onRequest);
      resolve();
    };
    mock.server.on('request', onRequest);
  });
  const req = httpRequest(`${mock.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      connection: 'close',
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw ? JSON.parse(raw) : undefined });
      });
    });
  });
  req.write(text.slice(0, 5));
  await arrived;
  await new Promise((resolve) => setImmediate(resolve));
  return () => {
    req.end(text.slice(5));
    return answer;
  };
}

async function json(mock: MockServer, path: string, init: { method?: string; token?: string; body?: object } = {}): Promise<Answer> {
  const res = await fetch(`${mock.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: text ? JSON.parse(text) : undefined };
}

/** The same probes on any sandbox: what a fresh boot must answer, byte for byte. */
async function probe(mock: MockServer) {
  const key = await json(mock, '/v1/auth/keys', { method: 'POST', token: KEYS.paid, body: { name: 'probe' } });
  const submission = await json(mock, '/v1/form_submissions', {
    method: 'POST',
    token: KEYS.free,
    body: { form_id: PINNED.free.newsletterForm, email: 'probe@example.com' },
  });
  const accounts = await json(mock, '/__admin/accounts');
  const free = await json(mock, `/__admin/accounts/${ACCOUNTS.free}`);
  const paid = await json(mock, `/__admin/accounts/${ACCOUNTS.paid}`);
  const journal = await json(mock, '/__admin/requests?limit=100');
  return {
    key: [key.status, key.headers['request-id'], key.body],
    submission: [submission.status, submission.headers['request-id'], submission.body],
    accounts: accounts.body,
    free: free.body,
    paid: paid.body,
    // Each server has its own port, which the journal shows in each request's Host header (contract §5.3).
    journal: JSON.parse(JSON.stringify(journal.body).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')) as unknown,
  };
}

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('a request stays in the world it started in: a reset during its body upload', () => {
  it('leaves the new world exactly a fresh boot, and the uploads finish in the old one without a 500', async () => {
    const mock = await startServer();
    const fresh = await startServer();
    servers.push(mock, fresh);
    // A tenant the reset removes, with a key that is valid when its upload starts.
    const tenant = await json(mock, '/__admin/accounts', { method: 'POST', body: { plan: 'free' } });
    expect(tenant.status).toBe(201);

    const submission = await startUpload(mock, '/v1/form_submissions', KEYS.free, {
      form_id: PINNED.free.newsletterForm,
      email: 'lost@example.com',
    });
    const fixtureKey = await startUpload(mock, '/v1/auth/keys', KEYS.paid, { name: 'started before the reset' });
    const tenantKey = await startUpload(mock, '/v1/auth/keys', tenant.body.api_key.token, { name: 'tenant key' });
    expect((await json(mock, '/__admin/reset', { method: 'POST' })).status).toBe(200);

    const answers = [await submission(), await fixtureKey(), await tenantKey()];
    for (const answer of answers) {
      // Answered in the old world: a 201, never a 500 or a stack.
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.headers['request-id']).toMatch(/^req_\d+$/);
    }
    // Nothing of them reached the new world, and the new world's id streams were not touched.
    expect(await probe(mock)).toEqual(await probe(fresh));
  });

  it('a key of a tenant removed by the reset is refused in the new world (401), never a 500', async () => {
    const mock = await startServer();
    servers.push(mock);
    const tenant = await json(mock, '/__admin/accounts', { method: 'POST', body: { plan: 'free' } });
    await json(mock, '/__admin/reset', { method: 'POST' });
    const after = await json(mock, '/v1/auth/keys', { method: 'POST', token: tenant.body.api_key.token, body: { name: 'x' } });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('authentication_required');
  });
});
