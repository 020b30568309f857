/** Contract §5.3: journal entries carry the request's and the answer's headers, credentials redacted. */
import { describe, expect, it } from 'vitest';
import { redactCredential, RequestJournal } from '../../src/protocol/request-journal.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';
import { journalOutcome } from '../support/protocol.js';
import { journal } from '../support/scenarios.js';

describe('journal headers (contract §5.3)', () => {
  it('contract §5.3: an entry holds the request headers by lower-case name, Authorization shown as its scheme and last four characters', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free)).set('User-Agent', 'my-client/1.2').set('X-Trace', 'abc');
    const [entry] = await journal(c);
    expect(entry!.headers).toMatchObject({ 'user-agent': 'my-client/1.2', 'x-trace': 'abc', authorization: 'Bearer …_key' });
    expect(JSON.stringify(entry)).not.toContain(KEYS.free);
    for (const name of Object.keys(entry!.headers)) expect(name).toBe(name.toLowerCase());
  });

  it('contract §5.3: the answer carries its headers as written: Request-Id, the rate-limit headers, Content-Type and Content-Length', async () => {
    const c = client(makeApp());
    const res = await c.get('/v1/status').set(bearer(KEYS.free));
    const [entry] = await journal(c);
    const { headers } = entry!.response;
    for (const name of [
      'request-id',
      'x-request-id',
      'ratelimit',
      'ratelimit-policy',
      'x-ratelimit-remaining',
      'content-type',
      'content-length',
    ]) {
      expect(headers[name], name).toBe(res.headers[name]);
    }
    expect(Object.keys(entry!.response)).toEqual(['status', 'headers', 'body']);
  });

  it('contract §5.3: a test can assert that a retry reused its Idempotency-Key', async () => {
    const c = client(makeApp());
    for (let i = 0; i < 2; i += 1)
      await c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'retry-1').send({ name: 'ci' });
    const entries = await journal(c);
    expect(
      entries.map((e) => [e.headers['idempotency-key'], e.idempotent_replayed, e.response.headers['request-id'] === e.request_id]),
    ).toEqual([
      ['retry-1', true, true],
      ['retry-1', false, true],
    ]);
  });

  it('contract §5.3: an error answered before authentication (401) keeps both header sets too', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set('Authorization', 'Bearer cc_test_wrong_a1b2');
    const [entry] = await journal(c);
    expect(entry).toMatchObject({ status: 401, headers: { authorization: 'Bearer …a1b2' }, response: { status: 401 } });
    expect(entry!.response.headers['request-id']).toBe(entry!.request_id);
  });

  it('contract §5.3: redaction keeps only the scheme and the last four characters, never a short token whole', () => {
    expect(redactCredential('Bearer cc_test_123a1b2')).toBe('Bearer …a1b2');
    expect(redactCredential('Basic dXNlcjpwYXNz')).toBe('Basic …YXNz');
    expect(redactCredential('cc_test_nosheme_zz99')).toBe('…zz99');
    expect(redactCredential('Bearer abcd')).toBe('Bearer …');
    expect(redactCredential('abc')).toBe('…');
  });

  it('contract §5.3, guide "budgets in bytes": header bytes count in the entry weight, so the byte budget bounds them', () => {
    const weigh = (headers: string[]) => {
      const ring = new RequestJournal(10);
      const ticket = ring.arrive({ request_id: 'req_1', method: 'GET', path: '/v1/x', querystring: '', at: 0, headers });
      ring.finish(ticket, journalOutcome({ response_headers: ['Request-Id', 'req_1'] }));
      return ring.bytes;
    };
    const big = 'x'.repeat(8 * 1024);
    expect(weigh(['X-Big', big]) - weigh([])).toBeGreaterThanOrEqual(big.length);
    // A budget that holds one such entry drops the older one when the next arrives.
    const ring = new RequestJournal(10, { budget: weigh(['X-Big', big]) + 100 });
    for (const id of ['req_1', 'req_2']) {
      const ticket = ring.arrive({ request_id: id, method: 'GET', path: '/v1/x', querystring: '', at: 0, headers: ['X-Big', big] });
      ring.finish(ticket, journalOutcome({ response_headers: ['Request-Id', 'req_1'] }));
    }
    expect(ring.list({ limit: 10 }).data.map((e) => e.request_id)).toEqual(['req_2']);
    expect(ring.bytes).toBeLessThanOrEqual(ring.budget);
  });

  it('contract §5.3: a header sent twice is one member, joined as Node joins it', () => {
    const ring = new RequestJournal(10);
    const ticket = ring.arrive({
      request_id: 'req_1',
      method: 'GET',
      path: '/v1/x',
      querystring: '',
      at: 0,
      headers: ['Accept', 'a', 'ACCEPT', 'b', 'Cookie', 'x=1', 'cookie', 'y=2'],
    });
    ring.finish(ticket, journalOutcome());
    expect(ring.list({ limit: 1 }).data[0]!.headers).toEqual({ accept: 'a, b', cookie: 'x=1; y=2' });
  });
});
