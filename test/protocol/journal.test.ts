/** Contract §3.4: the request journal. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { RequestJournal } from '../../src/protocol/request-journal.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { journalOutcome, mockServers } from '../support/protocol.js';
import { activate, journal } from '../support/scenarios.js';

const FIELDS = [
  'request_id',
  'method',
  'path',
  'query',
  'status',
  'account_id',
  'api_key_id',
  'operation_id',
  'idempotent_replayed',
  'scenario_ids',
  'fault',
  'timestamp',
  'headers',
  'body',
  'response',
  'finding_ids',
];

describe('GET /__admin/requests (contract §3.4)', () => {
  it('contract §3.4: records a /v1 request with every field, the body as sent and the virtual time', async () => {
    const app = makeApp();
    const c = client(app);
    app.sandbox.world.clock.advance(1.5);
    // `max_pages` and `max_depth` are filled in by validation; the journal keeps what the client sent.
    const sent = { url: 'https://example.com/' };
    const created = await c.post('/v1/web/crawl?').set(bearer(KEYS.free)).send(sent);
    const res = await c.get('/__admin/requests');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['object', 'data', 'has_more']);
    expect(res.body).toMatchObject({ object: 'list', has_more: false });
    const [entry] = res.body.data;
    expect(Object.keys(entry)).toEqual(FIELDS);
    expect(entry).toEqual({
      request_id: created.headers['request-id'],
      method: 'POST',
      path: '/v1/web/crawl',
      query: {},
      status: 201,
      account_id: ACCOUNTS.free,
      api_key_id: 'key_free_default',
      operation_id: 'crawlSite',
      idempotent_replayed: false,
      scenario_ids: [],
      fault: null,
      timestamp: '2026-01-15T12:00:01.500Z',
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: sent,
      response: { status: 201, headers: expect.objectContaining({ 'request-id': created.headers['request-id'] }), body: created.body },
      finding_ids: [],
    });
  });

  it('contract §3.4: records errors too: unknown paths, 401s, 429s, bodies that are not JSON, with the query as sent', async () => {
    const c = client(makeApp({ rateLimit: 'free=2' }));
    await c.get('/v1/nowhere?x=1&x=2').set(bearer(KEYS.free));
    await c.get('/v1/status').set(bearer('cc_test_unknown_token'));
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Content-Type', 'application/json').send('{"name": ');
    await c.get('/v1/auth/keys?limit=1').set(bearer(KEYS.free));
    const entries = await journal(c);
    expect(entries.map((e) => [e.status, e.path, e.query, e.account_id, e.api_key_id, e.operation_id, e.body])).toEqual([
      [429, '/v1/auth/keys', { limit: '1' }, ACCOUNTS.free, 'key_free_default', null, null],
      [400, '/v1/auth/keys', {}, ACCOUNTS.free, 'key_free_default', 'createApiKey', null],
      [401, '/v1/status', {}, null, null, 'getStatus', null],
      [404, '/v1/nowhere', { x: ['1', '2'] }, ACCOUNTS.free, 'key_free_default', null, null],
    ]);
  });

  it('contract §3.4: keeps the body of a write answered before its body was read (a 401, a scenario 500); not one that was not JSON', async () => {
    const c = client(makeApp());
    await c.post('/v1/auth/keys').set(bearer('cc_test_unknown_token')).send({ name: 'who' });
    await c
      .post('/v1/auth/keys')
      .set(bearer(KEYS.free))
      .set('Prefer', 'scenario=server-error')
      .send({ name: 'ci', extra: [1, 2] });
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Content-Type', 'text/plain').send('name=ci');
    expect((await journal(c)).map((e) => [e.status, e.body])).toEqual([
      [400, null],
      [500, { name: 'ci', extra: [1, 2] }],
      [401, { name: 'who' }],
    ]);
  });

  it('contract §3.4: a body over 1 MiB is not kept, whether a parser or the journal met it first', async () => {
    const c = client(makeApp());
    const big = { name: 'x'.repeat(1024 * 1024 + 10) };
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send(big);
    await c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Prefer', 'scenario=server-error').send(big);
    expect((await journal(c)).map((e) => [e.status, e.body])).toEqual([
      [500, null],
      [400, null],
    ]);
  });

  it('contract §3.4: marks idempotent replays and lists the scenarios that acted', async () => {
    const c = client(makeApp());
    const active = await activate(c, { name: 'deprecated-operations', operation_id: 'createApiKey' });
    const send = () => c.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'k1').send({ name: 'ci' });
    await send();
    await send();
    expect((await journal(c)).map((e) => [e.idempotent_replayed, e.scenario_ids])).toEqual([
      [true, [active.id]],
      [false, [active.id]],
    ]);
  });

  it('contract §3.4: admin calls are never recorded', async () => {
    const c = client(makeApp());
    await c.get('/__admin/health');
    await c.post('/__admin/accounts').send({});
    await c.get('/__admin/requests');
    expect(await journal(c)).toEqual([]);
  });

  it('contract §3.4: newest first; filtered by account_id, api_key_id and operation_id; limit and has_more', async () => {
    const c = client(makeApp());
    for (const token of [KEYS.free, KEYS.paid, KEYS.freeReadOnly, KEYS.free]) await c.get('/v1/status').set(bearer(token));
    await c.get('/v1/auth/keys').set(bearer(KEYS.free));
    const all = await journal(c);
    expect(all.map((e) => e.request_id)).toEqual([
      'req_000000000005',
      'req_000000000004',
      'req_000000000003',
      'req_000000000002',
      'req_000000000001',
    ]);
    expect((await journal(c, `?account_id=${ACCOUNTS.free}`)).map((e) => e.request_id)).toEqual([
      'req_000000000005',
      'req_000000000004',
      'req_000000000003',
      'req_000000000001',
    ]);
    expect((await journal(c, `?account_id=${ACCOUNTS.paid}`)).map((e) => e.request_id)).toEqual(['req_000000000002']);
    expect((await journal(c, '?api_key_id=key_free_read_only')).map((e) => e.request_id)).toEqual(['req_000000000003']);
    expect((await journal(c, `?account_id=${ACCOUNTS.free}&operation_id=getStatus`)).map((e) => e.request_id)).toEqual([
      'req_000000000004',
      'req_000000000003',
      'req_000000000001',
    ]);
    expect(await journal(c, '?account_id=acct_nobody')).toEqual([]);
    const page = await c.get(`/__admin/requests?account_id=${ACCOUNTS.free}&limit=2`);
    expect(page.body.data.map((e: { request_id: string }) => e.request_id)).toEqual(['req_000000000005', 'req_000000000004']);
    expect(page.body.has_more).toBe(true);
    const next = await c.get(`/__admin/requests?account_id=${ACCOUNTS.free}&limit=2&starting_after=req_000000000004`);
    expect(next.body.data.map((e: { request_id: string }) => e.request_id)).toEqual(['req_000000000003', 'req_000000000001']);
    expect(next.body.has_more).toBe(false);
  });

  it.each([
    ['?limit=0', 'bad_request', 'limit', /^Invalid value for 'limit': must be >= 1\.$/],
    ['?limit=1001', 'bad_request', 'limit', /^Invalid value for 'limit': must be <= 1000\.$/],
    ['?limit=ten', 'bad_request', 'limit', /^Invalid value for 'limit': must be an integer\.$/],
    ['?status=200', 'parameter_unknown', 'status', /^Received unknown parameter: status\.$/],
    ['?starting_after=req_999999999999', 'bad_request', 'starting_after', MESSAGES.unknownJournalCursor('req_999999999999')],
  ] as const)('§7.2: the query %s is refused with %s naming %s', async (query, code, param, message) => {
    expectError(await client(makeApp()).get(`/__admin/requests${query}`), code, { api: false, param, message });
  });
});

describe('clearing and bounds (contract §3.4)', () => {
  it('contract §3.4: DELETE /__admin/requests empties the journal; later requests are recorded again', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free));
    await c.get('/v1/status').set(bearer(KEYS.free));
    const res = await c.delete('/__admin/requests');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2 });
    expect(await journal(c)).toEqual([]);
    await c.get('/v1/status').set(bearer(KEYS.paid));
    expect((await journal(c)).map((e) => e.account_id)).toEqual([ACCOUNTS.paid]);
  });

  it('contract §3.1: reset empties the journal (and request ids restart)', async () => {
    const c = client(makeApp());
    await c.get('/v1/status').set(bearer(KEYS.free));
    await c.post('/__admin/reset');
    await c.get('/v1/status').set(bearer(KEYS.free));
    expect((await journal(c)).map((e) => e.request_id)).toEqual(['req_000000000001']);
  });

  it('contract §3.4: keeps only the last journalSize requests', async () => {
    const c = client(makeApp({ journalSize: 3 }));
    for (let i = 0; i < 7; i++) await c.get(`/v1/status?n=${i}`).set(bearer(KEYS.free));
    const entries = await journal(c);
    expect(entries.map((e) => e.path)).toEqual(['/v1/status', '/v1/status', '/v1/status']);
    expect(entries.map((e) => e.request_id)).toEqual(['req_000000000007', 'req_000000000006', 'req_000000000005']);
  });

  it('contract §3.4: journalSize 0 turns the journal off', async () => {
    const c = client(makeApp({ journalSize: 0 }));
    await c.get('/v1/status').set(bearer(KEYS.free));
    expect(await journal(c)).toEqual([]);
  });

  it('contract §3.4: the ring buffer holds exactly its capacity across many wraps, and lists only answered requests', () => {
    const ring = new RequestJournal(5);
    const outcome = journalOutcome();
    const arrive = (n: number) =>
      ring.arrive({ request_id: `req_${n}`, method: 'GET', path: '/v1/status', querystring: `n=${n}`, at: Date.parse(FROZEN_AT) });
    for (let n = 1; n <= 23; n++) ring.finish(arrive(n), outcome);
    const inFlight = arrive(24);
    expect(ring.list({ limit: 100 }).data.map((e) => e.request_id)).toEqual(['req_23', 'req_22', 'req_21', 'req_20']);
    ring.finish(inFlight, { ...outcome, raw_body: '{"a":1}' });
    const listed = ring.list({ limit: 100 }).data;
    expect(listed.map((e) => e.request_id)).toEqual(['req_24', 'req_23', 'req_22', 'req_21', 'req_20']);
    expect(listed[0]).toMatchObject({ query: { n: '24' }, body: { a: 1 }, timestamp: '2026-01-15T12:00:00.000Z' });
    expect(listed[1]).toMatchObject({ query: { n: '23' }, body: null });
    expect(ring.clear()).toBe(5);
    expect(ring.list({ limit: 100 })).toEqual({ data: [], has_more: false });
  });

  it('contract §3.4: a request still running when its place is taken by newer ones, or when the journal is emptied, is not recorded', () => {
    const ring = new RequestJournal(2);
    const outcome = journalOutcome({ scenario_ids: ['sc_1'] });
    const arrive = (n: number) => ring.arrive({ request_id: `req_${n}`, method: 'GET', path: '/v1/status', querystring: '', at: 0 });
    const slow = arrive(1);
    ring.finish(arrive(2), outcome);
    ring.finish(arrive(3), outcome);
    ring.finish(slow, outcome);
    expect(ring.list({ limit: 10 }).data.map((e) => [e.request_id, e.scenario_ids])).toEqual([
      ['req_3', ['sc_1']],
      ['req_2', ['sc_1']],
    ]);
    const cleared = arrive(4); // takes req_2's place; req_3 is the one answered entry left
    expect(ring.clear()).toBe(1);
    ring.finish(cleared, outcome);
    expect(ring.list({ limit: 10 }).data).toEqual([]);
  });

  it.each([
    [{ journalSize: -1 }, /^journal-size: expected an integer from 0 \(journal off\) to 1000000, got -1$/],
    [{ journalSize: 1.5 }, /^journal-size: expected an integer/],
    [{ journalSize: 1_000_001 }, /^journal-size: expected an integer/],
  ])('contract §1: journalSize %j is refused naming the setting', (options, message) => {
    expect(() => makeApp(options)).toThrow(ConfigError);
    expect(() => makeApp(options)).toThrow(message);
  });

  it('contract §1: --journal-size and MOCK_JOURNAL_SIZE set it (flags win); a bad value names the flag or variable', () => {
    expect(parseCliSettings(['--journal-size', '50'], { MOCK_JOURNAL_SIZE: '7' }).options.journalSize).toBe(50);
    expect(parseCliSettings([], { MOCK_JOURNAL_SIZE: '7' }).options.journalSize).toBe(7);
    expect(() => parseCliSettings(['--journal-size', 'lots'], {})).toThrow(/^--journal-size: expected an integer/);
    expect(() => parseCliSettings([], { MOCK_JOURNAL_SIZE: '-3' })).toThrow(/^MOCK_JOURNAL_SIZE: expected an integer/);
  });
});

describe('the journal through the typed client, under concurrent requests (contract §3.4)', () => {
  const start = mockServers();

  it('contract §3.4: every one of 40 simultaneous requests is recorded once, in arrival order', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const responses = await Promise.all(Array.from({ length: 40 }, () => fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.paid) })));
    const ids = responses.map((res) => res.headers.get('request-id'));
    const { data } = await mock.admin.requests.list({ account_id: ACCOUNTS.paid });
    expect(data).toHaveLength(40);
    expect(new Set(data.map((e) => e.request_id))).toEqual(new Set(ids));
    expect(data.map((e) => e.request_id)).toEqual([...data.map((e) => e.request_id)].sort().reverse());
    expect(await mock.admin.requests.clear()).toEqual({ deleted: 40 });
  });
});
