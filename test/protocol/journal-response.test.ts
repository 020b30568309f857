/** Contract §4.4: journal entries keep the answer (`response`), and a reader polls for newer entries (`ending_before`). */
import { describe, expect, it } from 'vitest';
import type { SandboxContext } from '../../src/http/context.js';
import { responseText } from '../../src/http/journal.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { journalOutcome, mockServers } from '../support/protocol.js';
import { RequestJournal } from '../../src/protocol/request-journal.js';
import { journal } from '../support/scenarios.js';

const MIB = 1024 * 1024;

/** The least of a context `responseText` reads: the method and the staged reply. */
function answered(method: string, body: unknown): SandboxContext {
  return { method, state: { reply: { status: 200, body } } } as unknown as SandboxContext;
}

describe('journal entries keep the answer (contract §4.4)', () => {
  it('contract §4.4: response holds the status and the JSON body the client got, successes and errors alike', async () => {
    const c = client(makeApp());
    const created = await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    const missing = await c.get('/v1/nowhere').set(bearer(KEYS.free));
    const refused = await c.get('/v1/status').set(bearer('cc_test_unknown_token'));
    expect((await journal(c)).map((e) => e.response)).toEqual([
      { status: 401, headers: expect.any(Object), body: refused.body },
      { status: 404, headers: expect.any(Object), body: missing.body },
      // Spec §2.2: the secret is returned once, to the client; the journal keeps its last four characters.
      { status: 201, headers: expect.any(Object), body: { ...created.body, token: `…${created.body.token.slice(-4)}` } },
    ]);
    expect(created.body.token).toMatch(/^cc_test_/);
  });

  it('contract §4.4: an answer with no body (HEAD) keeps its status and a null body', async () => {
    const c = client(makeApp());
    const head = await c.head('/v1/status').set(bearer(KEYS.free));
    const [entry] = await journal(c);
    expect(entry!.response).toEqual({ status: head.status, headers: expect.any(Object), body: null });
  });

  it('contract §4.4: a body past 1 MiB is never kept whole (body null, its head marked), counted in UTF-8 bytes; up to the limit it is, as the same string', () => {
    const atCap = 'x'.repeat(MIB);
    expect(responseText(answered('GET', atCap))).toBe(atCap);
    expect(responseText(answered('HEAD', { ok: true }))).toBeUndefined();
    const ring = new RequestJournal(10, { bodyLimit: MIB, budget: 16 * MIB });
    const keep = (text: string) => {
      const ticket = ring.arrive({ request_id: `req_${text.length}`, method: 'GET', path: '/v1/x', querystring: '', at: 0 });
      ring.finish(ticket, journalOutcome({ response_text: text, response_json: false }));
      return ring.list({ limit: 1 }).data[0]!.response!;
    };
    expect(keep(atCap)).toEqual({ status: 200, headers: {}, body: atCap });
    expect(keep('x'.repeat(MIB + 1))).toMatchObject({ body: null, body_truncated: { bytes: MIB + 1 } });
    // 2 bytes each in UTF-8: half as many characters already pass the cap.
    expect(keep('é'.repeat(MIB / 2 + 1))).toMatchObject({ body: null, body_truncated: { bytes: MIB + 2 } });
  });

  describe('a transport fault (contract §4.2)', () => {
    const start = mockServers();

    it('contract §4.4: a fault before the operation answered nothing: response is null', async () => {
      const mock = await start({ clock: FROZEN_AT });
      await mock.admin.scenarios.activate({ name: 'connection-reset', account_id: ACCOUNTS.free, times: 1 });
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }).catch(() => undefined);
      const { data } = await mock.admin.requests.list({ limit: 1 });
      expect(data[0]).toMatchObject({ status: null, fault: 'connection-reset', response: null });
    });

    it('contract §4.4: a fault after the operation keeps the answer that was lost, as `status` does', async () => {
      const mock = await start({ clock: FROZEN_AT });
      await mock.admin.scenarios.activate({ name: 'empty-response', account_id: ACCOUNTS.free, times: 1, params: { when: 'after' } });
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) }).catch(() => undefined);
      const { data } = await mock.admin.requests.list({ limit: 1 });
      expect(data[0]).toMatchObject({
        status: 200,
        fault: 'empty-response',
        response: { status: 200, body: expect.objectContaining({ limits: expect.any(Object) }) },
      });
    });
  });
});

describe('polling the journal for newer entries: ending_before (contract §4.4, the dashboard)', () => {
  const ids = (entries: Array<Record<string, any>>) => entries.map((e) => e.request_id);

  it('contract §4.4: lists the entries newer than the cursor, the limit nearest to it, newest first, has_more when newer ones remain', async () => {
    const c = client(makeApp());
    for (let i = 0; i < 5; i++) await c.get('/v1/status').set(bearer(KEYS.free));
    const page = await c.get('/__admin/requests?ending_before=req_000000000002&limit=2');
    expect(page.status).toBe(200);
    expect([ids(page.body.data), page.body.has_more]).toEqual([['req_000000000004', 'req_000000000003'], true]);
    const rest = await c.get('/__admin/requests?ending_before=req_000000000004&limit=2');
    expect([ids(rest.body.data), rest.body.has_more]).toEqual([['req_000000000005'], false]);
    const none = await c.get('/__admin/requests?ending_before=req_000000000005');
    expect([none.body.data, none.body.has_more]).toEqual([[], false]);
  });

  it('contract §4.4: filters apply to the newer entries too', async () => {
    const c = client(makeApp());
    for (const token of [KEYS.free, KEYS.paid, KEYS.free]) await c.get('/v1/status').set(bearer(token));
    const page = await c.get(`/__admin/requests?ending_before=req_000000000001&account_id=${ACCOUNTS.free}`);
    expect(ids(page.body.data)).toEqual(['req_000000000003']);
  });

  it('contract §4.4: a cursor no longer kept is 400 naming ending_before; both cursors at once are 400', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free));
    expectError(await c.get('/__admin/requests?ending_before=req_gone'), 'bad_request', {
      param: 'ending_before',
      message: MESSAGES.unknownJournalCursor('req_gone', 'ending_before'),
      api: false,
    });
    expectError(await c.get('/__admin/requests?ending_before=req_000000000001&starting_after=req_000000000001'), 'bad_request', {
      param: 'ending_before',
      message: MESSAGES.journalCursorsBoth,
      api: false,
    });
  });
});
