import { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { ANSWER_PIECE_CHARS } from '../../src/http/reply.js';
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

  it('an answer over 256 KiB leaves in pieces of at most 256 KiB characters, each in a turn of the event loop of its own, byte for byte (a surrogate pair on a piece boundary whole)', async () => {
    const app = makeApp();
    const api = client(app);
    // Every piece's data and the turn it was written in; a counter of setImmediate turns tells turns apart.
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    tick();
    const writes: Array<{ turn: number; chars: number }> = [];
    const spied = (name: 'write' | 'end') => {
      // Called with the response as `this` below, as Node calls it.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const original = ServerResponse.prototype[name] as (this: ServerResponse, ...args: unknown[]) => unknown;
      return vi.spyOn(ServerResponse.prototype, name).mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
        if (typeof args[0] === 'string') writes.push({ turn, chars: args[0].length });
        return original.apply(this, args) as never;
      });
    };
    const spies = [spied('write'), spied('end')];
    try {
      // Emoji are surrogate pairs: with a padding of 0 or 1 character before them, one of the two
      // answers has a pair across the first piece boundary.
      for (const padding of ['', 'x']) {
        writes.length = 0;
        // 960 KB of UTF-8, 480,000 UTF-16 units: two pieces.
        const metadata = { p: padding, emoji: '🔑'.repeat(240_000) };
        const res = await api.patch('/v1/email/inboxes/inbox_paid_support').set(bearer(KEYS.paid)).send({ metadata });
        expect(res.status).toBe(200);
        expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
        expect(res.text).not.toContain('\ufffd');
        expect(res.body.metadata).toMatchObject(metadata);
        expect(writes.length).toBeGreaterThanOrEqual(2);
        expect(writes.reduce((sum, w) => sum + w.chars, 0)).toBe(res.text.length);
        for (const w of writes) expect(w.chars).toBeLessThanOrEqual(ANSWER_PIECE_CHARS);
        expect(new Set(writes.map((w) => w.turn)).size).toBe(writes.length);
      }
    } finally {
      ticking = false;
      for (const spy of spies) spy.mockRestore();
    }
  });
});
