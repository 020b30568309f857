/** Contract §5.3: `GET /__admin/requests.har`, the journal as HAR 1.2. */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { harLog } from '../../src/admin/har-log.js';
import { RequestJournal } from '../../src/protocol/request-journal.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp, startServer } from '../support/harness.js';
import { journalOutcome } from '../support/protocol.js';
import { activate, journal } from '../support/scenarios.js';

const schema = JSON.parse(readFileSync(new URL('./har-1.2.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
// ajv-formats is CommonJS: its function is the module's default.
(addFormatsModule as unknown as { default: (ajv: Ajv) => void }).default(ajv);
const validHar = ajv.compile(schema);

function expectHar12(har: unknown): void {
  const ok = validHar(har);
  expect(ok, JSON.stringify(validHar.errors, null, 2)).toBe(true);
}

describe('GET /__admin/requests.har (contract §5.3)', () => {
  it('contract §5.3: the URL carries the query string as sent, byte for byte, so a replay sends the same request', async () => {
    const c = client(makeApp());
    await c.get('/v1/auth/keys?limit=1&starting_after=%20z&flag').set(bearer(KEYS.free));
    const har = JSON.parse((await c.get('/__admin/requests.har')).text);
    expectHar12(har);
    expect(har.log.entries[0].request.url).toMatch(/\/v1\/auth\/keys\?limit=1&starting_after=%20z&flag$/);
  });

  it('contract §5.3: a real session exports as HAR 1.2, oldest first, every exchange as sent', async () => {
    const c = client(makeApp());
    await c.get('/v1/auth/keys?limit=1').set(bearer(KEYS.free)).set('User-Agent', 'my-client/1.2');
    const created = await c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'k-1').send({ name: 'ci' });
    await c.get('/v1/nowhere').set(bearer(KEYS.paid));
    await c.get('/v1/status').set('Authorization', 'Bearer cc_test_wrong_zz99');
    const res = await c.get('/__admin/requests.har');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const har = JSON.parse(res.text);
    expectHar12(har);
    const { log } = har;
    expect(log.version).toBe('1.2');
    expect(log.creator.name).toBe('creator-commerce-mock');
    const entries = await journal(c);
    // Oldest first; each startedDateTime is the journal's timestamp of that request.
    expect(log.entries.map((e: any) => e._request_id)).toEqual(entries.map((e) => e.request_id).reverse());
    expect(log.entries.map((e: any) => e.startedDateTime)).toEqual(entries.map((e) => e.timestamp).reverse());
    const [status, post, missing, refused] = log.entries;
    expect(status.request.method).toBe('GET');
    expect(status.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/auth\/keys\?limit=1$/);
    expect(status.request.queryString).toEqual([{ name: 'limit', value: '1' }]);
    expect(status.request.headers).toContainEqual({ name: 'User-Agent', value: 'my-client/1.2' });
    expect(status.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer …_key' });
    expect(res.text).not.toContain(KEYS.free);
    expect(status.response.status).toBe(200);
    expect(status.response.statusText).toBe('OK');
    expect(status.response.content.mimeType).toMatch(/^application\/json/);
    expect(JSON.parse(status.response.content.text)).toEqual(entries[3]!.response.body);
    expect(post.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"ci"}' });
    expect(post.request.bodySize).toBe(Buffer.byteLength('{"name":"ci"}'));
    expect(post.request.headers).toContainEqual({ name: 'Idempotency-Key', value: 'k-1' });
    expect(post.response.status).toBe(201);
    // The secret of a created key is redacted as the journal shows it (spec §2.2).
    expect(JSON.parse(post.response.content.text).token).toBe(`…${created.body.token.slice(-4)}`);
    expect(post.response.headers).toContainEqual({ name: 'Request-Id', value: post._request_id });
    expect(status.response.headers).toContainEqual({ name: 'Content-Length', value: String(status.response.content.size) });
    expect(missing.response.status).toBe(404);
    expect(refused.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer …zz99' });
    expect(refused.response.status).toBe(401);
    for (const entry of log.entries) {
      expect(entry.time).toBeGreaterThanOrEqual(0);
      expect(entry.timings.wait).toBe(entry.time);
    }
  });

  it("contract §5.3: the journal's filters and limit apply: the newest matches, written oldest first", async () => {
    const c = client(makeApp());
    for (let i = 0; i < 3; i += 1) await c.get('/v1/status').set(bearer(KEYS.free));
    await c.get('/v1/status').set(bearer(KEYS.paid));
    await c.get('/v1/auth/keys').set(bearer(KEYS.free));
    const ids = (await journal(c, `?account_id=${ACCOUNTS.free}&operation_id=getStatus`)).map((e) => e.request_id);
    const res = await c.get(`/__admin/requests.har?account_id=${ACCOUNTS.free}&operation_id=getStatus&limit=2`);
    const { log } = JSON.parse(res.text);
    expectHar12({ log });
    expect(log.entries.map((e: any) => e._request_id)).toEqual(ids.slice(0, 2).reverse());
    expect(log.comment).toMatch(/older ones were left out/);
    const byKey = JSON.parse((await c.get('/__admin/requests.har?api_key_id=key_paid_default')).text).log;
    expect(byKey.entries.map((e: any) => e._api_key_id)).toEqual(['key_paid_default']);
    expect(byKey.comment).toBeUndefined();
    expect((await c.get('/__admin/requests.har?limit=0')).status).toBe(400);
    expect((await c.get('/__admin/requests.har?starting_after=req_1')).status).toBe(400);
  });

  it('contract §5.3, §4.2: an exchange that got no answer (a transport fault) is a HAR entry with status 0 and the fault in _error', async () => {
    const mock = await startServer();
    try {
      await activate(client(mock.app), { name: 'connection-reset', account_id: ACCOUNTS.free, times: 1 });
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }).catch(() => undefined);
      const har = (await (await fetch(`${mock.url}/__admin/requests.har`)).json()) as { log: { entries: Array<{ response: unknown }> } };
      expectHar12(har);
      expect(har.log.entries.at(-1)!.response).toMatchObject({ status: 0, statusText: '', _error: 'connection-reset', bodySize: -1 });
    } finally {
      await mock.close();
    }
  });

  it('guide "admin listings answer a bounded size": the export stops before its byte bound, keeping the newest, at least one', () => {
    const ring = new RequestJournal(100);
    for (let i = 1; i <= 20; i += 1) {
      const ticket = ring.arrive({
        request_id: `req_${String(i).padStart(3, '0')}`,
        method: 'GET',
        path: '/v1/x',
        querystring: '',
        at: i,
        headers: ['Host', 'h'],
      });
      ring.finish(
        ticket,
        journalOutcome({
          response_text: JSON.stringify({ pad: 'x'.repeat(1000) }),
          response_headers: ['Content-Type', 'application/json'],
        }),
      );
    }
    const log = harLog(ring.exchanges({}), 100, '1.0.0', 8 * 1024);
    const parsed = JSON.parse(log.json);
    expectHar12(parsed);
    expect(Buffer.byteLength(log.json)).toBeLessThanOrEqual(8 * 1024);
    expect(log.omitted).toBe(true);
    expect(parsed.log.entries.at(-1)._request_id).toBe('req_020');
    expect(parsed.log.entries.length).toBe(log.count);
    const tiny = harLog(ring.exchanges({}), 100, '1.0.0', 10);
    expect(tiny.count).toBe(1);
  });
});
