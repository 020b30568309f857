/**
 * The request journal is bounded in bytes, not only in entries (contract §3.4, §4.4): each body it
 * keeps up to `journalBodyLimit` (beyond that a marked head and the full length), the whole journal
 * within `journalBudget` (the heaviest account's oldest entries dropped first), and a listing page within a byte cap
 * whatever its `limit`. Bytes are read from the journal's own accounting, never from RSS.
 */
import { describe, expect, it } from 'vitest';
import { JOURNAL_PAGE_BYTES, RequestJournal } from '../../src/protocol/request-journal.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';
import { journalOutcome } from '../support/protocol.js';
import { PINNED } from '../support/resources.js';
import { journal } from '../support/scenarios.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const INBOX = `/v1/email/inboxes/${PINNED.free.inbox}`;

/** A PATCH body of about `bytes` bytes: one large metadata value, the largest body a client grows a record with. */
function largePatch(bytes: number, fill = 'x'): string {
  return JSON.stringify({ metadata: { note: fill.repeat(bytes) } });
}

describe('contract §3.4, §4.4: bodies over journalBodyLimit are kept truncated, marked, with their full length', () => {
  it('contract §3.4: a request body over the limit is body null plus body_truncated {bytes, head}; the answer likewise', async () => {
    const app = makeApp({ journalBodyLimit: '1KiB' });
    const c = client(app);
    const sent = largePatch(5000);
    const res = await c.patch(INBOX).set(bearer(KEYS.free)).type('json').send(sent);
    expect(res.status).toBe(200);
    const [entry] = await journal(c);
    expect(entry!.body).toBeNull();
    expect(entry!.body_truncated).toEqual({ bytes: Buffer.byteLength(sent), head: sent.slice(0, 1024) });
    expect(entry!.response.body).toBeNull();
    expect(entry!.response.body_truncated).toEqual({ bytes: Buffer.byteLength(res.text), head: res.text.slice(0, 1024) });
  });

  it('contract §4.4: bodies within the limit keep the entry shape unchanged (no truncation members)', async () => {
    const c = client(makeApp({ journalBodyLimit: '64KiB' }));
    await c
      .patch(INBOX)
      .set(bearer(KEYS.free))
      .send({ metadata: { note: 'x'.repeat(1000) } });
    const [entry] = await journal(c);
    expect(entry!.body).toEqual({ metadata: { note: 'x'.repeat(1000) } });
    expect(entry).not.toHaveProperty('body_truncated');
    expect(entry!.response).not.toHaveProperty('body_truncated');
    expect(Object.keys(entry!.response)).toEqual(['status', 'headers', 'body']);
  });

  it('contract §3.4: the head is counted in UTF-8 bytes and never splits a character', () => {
    const ring = new RequestJournal(10, { bodyLimit: 10 });
    const raw = JSON.stringify({ a: 'ééééééé€€€' });
    const ticket = ring.arrive({ request_id: 'req_1', method: 'POST', path: '/v1/x', querystring: '', at: 0 });
    ring.finish(ticket, journalOutcome({ raw_body: raw }));
    const [entry] = ring.list({ limit: 1 }).data;
    const cut = entry!.body_truncated!;
    expect(cut.bytes).toBe(Buffer.byteLength(raw));
    expect(Buffer.byteLength(cut.head)).toBeLessThanOrEqual(10);
    expect(raw.startsWith(cut.head)).toBe(true);
    expect(cut.head).toBe('{"a":"éé');
  });

  it('contract §4.4: a limit of 0 keeps no body, only its length', () => {
    const ring = new RequestJournal(10, { bodyLimit: 0 });
    const ticket = ring.arrive({ request_id: 'req_1', method: 'POST', path: '/v1/x', querystring: '', at: 0 });
    ring.finish(ticket, journalOutcome({ raw_body: '{"a":1}', response_text: '{"ok":true}' }));
    const [entry] = ring.list({ limit: 1 }).data;
    expect(entry).toMatchObject({ body: null, body_truncated: { bytes: 7, head: '' } });
    expect(entry!.response).toEqual({ status: 200, headers: {}, body: null, body_truncated: { bytes: 11, head: '' } });
  });
});

describe('contract §3.4: the journal holds at most journalBudget bytes, dropping the oldest entries first', () => {
  it('contract §3.4: large PATCHes never take the journal past its budget; the newest entries are the ones kept', async () => {
    const app = makeApp({ journalBodyLimit: '16KiB', journalBudget: '128KiB' });
    const c = client(app);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await c.patch(INBOX).set(bearer(KEYS.free)).type('json').send(largePatch(20_000));
      ids.push(res.headers['request-id']!);
      expect(app.sandbox.world.journal.bytes).toBeLessThanOrEqual(128 * KIB);
    }
    const kept = (await journal(c, '?limit=1000')).map((e) => e.request_id);
    // Each entry weighs two 16 KiB heads and its overhead: a handful fit, the newest ones.
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThan(30);
    expect(kept).toEqual(ids.slice(-kept.length).reverse());
  });

  it('contract §3.4: the count bound still holds beside the byte budget', async () => {
    const c = client(makeApp({ journalSize: 3, journalBudget: '64MiB' }));
    for (let i = 0; i < 5; i++) await c.get('/v1/status').set(bearer(KEYS.free));
    expect(await journal(c, '?limit=1000')).toHaveLength(3);
  });

  it('contract §3.4: an emptied journal weighs nothing; every entry dropped gives its bytes back', () => {
    const ring = new RequestJournal(100, { bodyLimit: 4 * KIB, budget: 20 * KIB });
    for (let n = 1; n <= 50; n++) {
      const ticket = ring.arrive({
        request_id: `req_${String(n).padStart(4, '0')}`,
        method: 'POST',
        path: '/v1/x',
        querystring: '',
        at: 0,
      });
      ring.finish(ticket, journalOutcome({ raw_body: JSON.stringify({ n, pad: 'y'.repeat(3000) }) }));
      expect(ring.bytes).toBeLessThanOrEqual(20 * KIB);
    }
    expect(ring.bytes).toBeGreaterThan(0);
    ring.clear();
    expect(ring.bytes).toBe(0);
  });

  it('contract §4.1 with the budget: forgetting an account gives its bytes back', () => {
    const ring = new RequestJournal(100, { budget: MIB });
    const ticket = ring.arrive({ request_id: 'req_1', method: 'POST', path: '/v1/x', querystring: '', at: 0 });
    ring.finish(ticket, journalOutcome({ account_id: 'acct_a', raw_body: JSON.stringify({ pad: 'y'.repeat(3000) }) }));
    expect(ring.bytes).toBeGreaterThan(3000);
    ring.forget('acct_a');
    expect(ring.bytes).toBe(0);
  });

  it('contract §3.4: past the budget the heaviest account gives up its oldest entries; a light neighbour keeps its own', () => {
    const ring = new RequestJournal(1000, { bodyLimit: 8 * KIB, budget: 64 * KIB });
    let n = 0;
    const send = (account: string | null, pad: number) => {
      n += 1;
      const ticket = ring.arrive({
        request_id: `req_${String(n).padStart(6, '0')}`,
        method: 'POST',
        path: '/v1/x',
        querystring: '',
        at: 0,
      });
      ring.finish(ticket, journalOutcome({ account_id: account, raw_body: JSON.stringify({ n, pad: 'y'.repeat(pad) }) }));
    };
    // The light tenant writes first, so its entries are the oldest of the journal.
    for (let i = 0; i < 5; i++) send('acct_light', 100);
    send(null, 100);
    for (let i = 0; i < 200; i++) send('acct_heavy', 6000);
    expect(ring.bytes).toBeLessThanOrEqual(64 * KIB);
    expect(ring.list({ account_id: 'acct_light', limit: 100 }).data).toHaveLength(5);
    // A request without a known key is a light owner of its own.
    expect(ring.list({ limit: 1000 }).data.filter((entry) => entry.account_id === null)).toHaveLength(1);
    const heavy = ring.list({ account_id: 'acct_heavy', limit: 100 }).data;
    expect(heavy.length).toBeGreaterThan(0);
    // What the heavy tenant keeps is its newest.
    expect(heavy[0]!.request_id).toBe(`req_${String(n).padStart(6, '0')}`);
    // Once the light tenant is the heaviest, its oldest go first.
    ring.forget('acct_heavy');
    for (let i = 0; i < 30; i++) send('acct_light', 6000);
    expect(ring.bytes).toBeLessThanOrEqual(64 * KIB);
    expect(ring.list({ limit: 1000 }).data.filter((entry) => entry.account_id === null)).toHaveLength(1);
  });

  it('contract §3.4: many tenants together stay within the one budget', async () => {
    const app = makeApp({ journalBodyLimit: '8KiB', journalBudget: '256KiB' });
    const c = client(app);
    const tokens: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await c.post('/__admin/accounts').send({ plan: 'free' });
      expect(res.status).toBe(201);
      tokens.push(res.body.api_key.token);
    }
    for (let round = 0; round < 3; round++) {
      for (const token of tokens) {
        await c
          .post('/v1/auth/keys')
          .set(bearer(token))
          .send({ name: 'n'.repeat(round * 40) });
        await c.patch(INBOX).set(bearer(token)).type('json').send(largePatch(12_000));
      }
      expect(app.sandbox.world.journal.bytes).toBeLessThanOrEqual(256 * KIB);
    }
    const kept = await journal(c, '?limit=1000');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(240);
  });
});

describe('contract §3.4: a listing page answers a bounded size whatever its limit', () => {
  it(`contract §3.4: a page stops before ${JOURNAL_PAGE_BYTES / MIB} MiB with has_more, and the cursor walks the rest`, async () => {
    const app = makeApp({ journalBodyLimit: '1MiB' });
    const c = client(app);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await c.patch(INBOX).set(bearer(KEYS.free)).type('json').send(largePatch(900_000));
      expect(res.status).toBe(200);
      ids.push(res.headers['request-id']!);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await c.get(`/__admin/requests?limit=1000${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(JOURNAL_PAGE_BYTES);
      pages += 1;
      seen.push(...res.body.data.map((e: { request_id: string }) => e.request_id));
      if (!res.body.has_more) break;
      cursor = seen.at(-1);
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual([...ids].reverse());
  });

  it('contract §4.4: polling with ending_before keeps the entries nearest the cursor and says has_more', () => {
    const ring = new RequestJournal(100, { bodyLimit: 8 * KIB });
    for (let n = 1; n <= 10; n++) {
      const ticket = ring.arrive({
        request_id: `req_${String(n).padStart(4, '0')}`,
        method: 'POST',
        path: '/v1/x',
        querystring: '',
        at: 0,
      });
      ring.finish(ticket, journalOutcome({ raw_body: JSON.stringify({ pad: 'y'.repeat(4000) }) }));
    }
    const page = ring.listPage({ limit: 100, ending_before: 'req_0002' }, 13 * KIB);
    expect(page.data.map((e) => e.request_id)).toEqual(['req_0005', 'req_0004', 'req_0003']);
    expect(page.has_more).toBe(true);
    const first = ring.listPage({ limit: 100 }, 9 * KIB);
    expect(first.data.map((e) => e.request_id)).toEqual(['req_0010', 'req_0009']);
    expect(first.has_more).toBe(true);
    // One entry over the cap alone is still listed, so the cursor always moves.
    expect(ring.listPage({ limit: 100 }, 10).data).toHaveLength(1);
  });
});

describe('contract §1: the journal budgets are settings', () => {
  it('contract §1: --journal-body-limit / MOCK_JOURNAL_BODY_LIMIT and --journal-budget / MOCK_JOURNAL_BUDGET take byte sizes', () => {
    const both = parseCliSettings(['--journal-body-limit', '8KiB'], { MOCK_JOURNAL_BODY_LIMIT: '1KiB', MOCK_JOURNAL_BUDGET: '32MiB' });
    expect(both.options).toMatchObject({ journalBodyLimit: 8 * KIB, journalBudget: 32 * MIB });
    expect(() => parseCliSettings(['--journal-budget', 'lots'], {})).toThrow(/^--journal-budget: expected a byte size/);
    expect(() => parseCliSettings([], { MOCK_JOURNAL_BODY_LIMIT: '2MiB' })).toThrow(/^MOCK_JOURNAL_BODY_LIMIT: expected a byte size/);
  });

  it.each([{ journalBodyLimit: -1 }, { journalBodyLimit: '2MiB' }, { journalBudget: 'much' }, { journalBudget: 1.5 }])(
    'contract §1: %j is refused naming the setting',
    (options) => {
      expect(() => makeApp(options as never)).toThrow(ConfigError);
      expect(() => makeApp(options as never)).toThrow(/^journal-(body-limit|budget): expected a byte size/);
    },
  );

  it('contract §1: the defaults are 64 KiB per body and 64 MiB for the journal', () => {
    const { journal: ring } = makeApp().sandbox.world;
    expect([ring.bodyLimit, ring.budget]).toEqual([64 * KIB, 64 * MIB]);
  });
});

describe('spec §2.2: a key secret is never shown again, the journal and the dashboard included', () => {
  it('spec §2.2: the createApiKey entry shows the token as "…" and its last four characters', async () => {
    const c = client(makeApp());
    const created = await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    expect(created.status).toBe(201);
    const [entry] = await journal(c, '?operation_id=createApiKey');
    expect(entry!.response.body).toEqual({ ...created.body, token: `…${created.body.token.slice(-4)}` });
    const listing = await c.get('/__admin/requests');
    expect(listing.text).not.toContain(created.body.token);
  });

  it('spec §2.2, §8: the idempotent replay answers the token whole (the client retrying), while both entries redact it', async () => {
    const c = client(makeApp());
    const send = () => c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'mint-1').send({ name: 'ci' });
    const first = await send();
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    const entries = await journal(c, '?operation_id=createApiKey');
    expect(entries.map((e) => [e.idempotent_replayed, e.response.body.token])).toEqual([
      [true, `…${first.body.token.slice(-4)}`],
      [false, `…${first.body.token.slice(-4)}`],
    ]);
  });
});
