import { describe, expect, it } from 'vitest';
import { HeaderList } from '../../src/http/wire.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';

describe('the response writer (src/http/reply.ts)', () => {
  it('keeps headers in the order first set, and a name set again in any case replaces the value in place', () => {
    const headers = new HeaderList();
    headers.set('Request-Id', 'req_1');
    headers.setAll({ RateLimit: '"default";r=9;t=60', 'Retry-After': '5' });
    headers.set('ratelimit', '"default";r=0;t=60');
    expect(headers.flat).toEqual(['Request-Id', 'req_1', 'RateLimit', '"default";r=0;t=60', 'Retry-After', '5']);
    expect(headers.get('RETRY-AFTER')).toBe('5');
    expect(headers.get('Link')).toBeUndefined();
    expect(headers.toObject()).toEqual({ 'request-id': 'req_1', ratelimit: '"default";r=0;t=60', 'retry-after': '5' });
  });

  it('RFC 9110 §9.3.2: HEAD answers with the headers of the GET, Content-Length included, and no body', async () => {
    const api = client(makeApp());
    const get = await api.get('/v1/status').set(bearer(KEYS.free));
    const head = await api.head('/v1/status').set(bearer(KEYS.free));
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['request-id']).toMatch(/^req_/);
    expect(head.text ?? '').toBe('');
  });

  it('writes JSON with its exact byte length, multi-byte characters included', async () => {
    const api = client(makeApp());
    const res = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'clé — ключ 🔑' });
    expect(res.status).toBe(201);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body.name).toBe('clé — ключ 🔑');
  });

  it('leaves routes that answer through ctx.body to Koa, with the staged headers', async () => {
    const res = await client(makeApp()).get('/__admin/health');
    expect(res.status).toBe(200);
    expect(res.headers['request-id']).toMatch(/^req_/);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
