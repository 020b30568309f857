import type { Response as TestResponse } from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../src/errors/messages.js';
import { canonicalJson } from '../../../src/http/idempotency.js';
import { IDEMPOTENCY_TTL_MS, IdempotencyStore, type IdempotencyLookup } from '../../../src/protocol/idempotency-store.js';
import { compileSchema } from '../../../src/operations/validation.js';
import { createApiKey } from '../../../src/resources/api-keys/operations.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../../support/harness.js';
import { deferred, mockServers, readRateLimit, spyOnState } from '../../support/protocol.js';
import { makeWidgetApp } from '../../support/test-operations.js';
import { eventually } from '../../support/eventually.js';

const validKey = compileSchema(createApiKey.success.schema);

type Api = ReturnType<typeof client>;

const createKey = (api: Api, idempotencyKey: string | undefined, body: unknown = { name: 'ci' }, token: string = KEYS.free) => {
  const req = api.post('/v1/auth/keys').set(bearer(token));
  if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
  return req.send(body as object);
};

async function keyCount(api: Api, token: string = KEYS.free): Promise<number> {
  const res = await api.get('/v1/auth/keys?limit=100').set(bearer(token));
  return res.body.data.length;
}

describe('Idempotency-Key on a real write (spec §4, §7.3, §8)', () => {
  it('§8: the same key with the same payload replays the first response byte for byte, with a fresh Request-Id and Idempotent-Replayed', async () => {
    const api = client(makeApp());
    const before = await keyCount(api);
    const first = await createKey(api, 'order-1');
    const second = await createKey(api, 'order-1');
    expect(first.status).toBe(201);
    expect(validKey(first.body)).toBe(true);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['request-id']).not.toBe(first.headers['request-id']);
    // A replay is still a request: it is counted and carries its own standing.
    expect(readRateLimit(second).remaining).toBe(readRateLimit(first).remaining - 1);
    expect(await keyCount(api)).toBe(before + 1);
  });

  it('§8: key order and whitespace in the JSON body do not make another payload', async () => {
    const api = client(makeApp());
    const first = await api.post('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'k').type('json').send('{"name":"ci"}');
    const second = await api
      .post('/v1/auth/keys')
      .set(bearer(KEYS.free))
      .set('Idempotency-Key', 'k')
      .type('json')
      .send('{ "name" :  "ci" }\n');
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('§7.3.3: the same key with another payload is 400 idempotency_key_reused naming the header, and creates nothing', async () => {
    const api = client(makeApp());
    await createKey(api, 'order-2', { name: 'first' });
    const count = await keyCount(api);
    const res = await createKey(api, 'order-2', { name: 'second' });
    expectError(res, 'idempotency_key_reused', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyReused('order-2') });
    expect(await keyCount(api)).toBe(count);
    // The original is still replayable.
    expect((await createKey(api, 'order-2', { name: 'first' })).headers['idempotent-replayed']).toBe('true');
  });

  it('§4, §8: a key of 255 characters is accepted; 256 is 400 bad_request naming the header, and nothing is created', async () => {
    const api = client(makeApp());
    const before = await keyCount(api);
    expect((await createKey(api, 'k'.repeat(255))).status).toBe(201);
    const res = await createKey(api, 'k'.repeat(256));
    expectError(res, 'bad_request', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyLength(255, 256) });
    expect(await keyCount(api)).toBe(before + 1);
  });

  it('§4: an empty Idempotency-Key is 400 bad_request naming the header', async () => {
    const res = await createKey(client(makeApp()), '');
    expectError(res, 'bad_request', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyLength(255, 0) });
  });

  it('§8: keys are scoped to the account: another account using the same key gets its own result', async () => {
    const api = client(makeApp());
    const free = await createKey(api, 'shared', { name: 'ci' }, KEYS.free);
    const paid = await createKey(api, 'shared', { name: 'ci' }, KEYS.paid);
    expect(paid.status).toBe(201);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
    expect(paid.body.id).not.toBe(free.body.id);
  });

  it('§8: every key of the same account shares the memory', async () => {
    const api = client(makeApp());
    const other = await api.post('/__admin/api_keys').send({ account_id: ACCOUNTS.free, name: 'second' });
    const first = await createKey(api, 'k1', { name: 'ci' }, KEYS.free);
    const second = await createKey(api, 'k1', { name: 'ci' }, other.body.token);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('§8: a key is remembered for 24 hours of the virtual clock, then runs again', async () => {
    const app = makeApp();
    const api = client(app);
    const first = await createKey(api, 'daily');
    await api.post('/__admin/clock/advance').send({ seconds: 24 * 3600 - 1 });
    const within = await createKey(api, 'daily');
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(within.text).toBe(first.text);
    await api.post('/__admin/clock/advance').send({ seconds: 1 });
    const after = await createKey(api, 'daily');
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.body.id).not.toBe(first.body.id);
  });

  it('contract §3.1: reset forgets every idempotency key', async () => {
    const app = makeApp();
    const api = client(app);
    await createKey(api, 'before-reset');
    await api.post('/__admin/reset');
    const again = await createKey(api, 'before-reset');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(app.sandbox.world.idempotency.size).toBe(1);
  });

  it('§8: reads ignore the header, whatever its length', async () => {
    const res = await client(makeApp()).get('/v1/auth/keys').set(bearer(KEYS.free)).set('Idempotency-Key', 'k'.repeat(300));
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('§8: ctx.state tells the journal whether the response was a replay, and the key', async () => {
    const app = makeApp();
    const states = spyOnState(app);
    const api = client(app);
    await createKey(api, undefined);
    await createKey(api, 'journal');
    await createKey(api, 'journal');
    expect(states.map((s) => [s.idempotencyKey, s.idempotentReplayed])).toEqual([
      [undefined, undefined],
      ['journal', undefined],
      ['journal', true],
    ]);
  });

  it('§5, §8: a 403 is not remembered: the same key then works for a key allowed to write', async () => {
    const api = client(makeApp());
    expectError(await createKey(api, 'k403', { name: 'ci' }, KEYS.freeReadOnly), 'forbidden', { message: MESSAGES.readOnlyKey });
    const ok = await createKey(api, 'k403', { name: 'ci' }, KEYS.free);
    expect(ok.status).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });

  it('§8: a request that fails validation is not remembered: the corrected payload may reuse the key', async () => {
    const api = client(makeApp());
    expectError(await createKey(api, 'fix-me', { name: 5 }), 'validation_failed', {
      param: 'name',
      message: MESSAGES.validationFailed,
      errors: { name: ['must be of type string or null'] },
    });
    const fixed = await createKey(api, 'fix-me', { name: 'five' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect((await createKey(api, 'fix-me', { name: 'five' })).headers['idempotent-replayed']).toBe('true');
  });
});

/**
 * Sends the same request twice, the second only once the first is held inside its handler, and
 * lets the first go once the second is seen waiting for it in the idempotency store.
 */
async function overlapping(widgets: ReturnType<typeof makeWidgetApp>, send: () => Promise<TestResponse>) {
  const { app, controls } = widgets;
  const begin = vi.spyOn(app.sandbox.world.idempotency, 'begin');
  const gate = deferred();
  controls.gate = gate.promise;
  const first = send();
  await eventually(() => expect(controls.calls).toBe(1));
  const second = send();
  await eventually(() => expect(begin.mock.results.map((r) => (r.value as IdempotencyLookup).kind)).toContain('wait'));
  expect(controls.calls).toBe(1);
  gate.resolve();
  return Promise.all([first, second]);
}

describe('Idempotency-Key with concurrent requests (spec §8)', () => {
  const startServer = mockServers();

  it('§8: 20 concurrent creates with one key on a real socket create exactly one object', async () => {
    const server = await startServer({ clock: FROZEN_AT });
    const list = async () =>
      ((await (await fetch(`${server.apiUrl}/auth/keys?limit=100`, { headers: bearer(KEYS.free) })).json()) as { data: unknown[] }).data
        .length;
    const before = await list();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.apiUrl}/auth/keys`, {
          method: 'POST',
          headers: { ...bearer(KEYS.free), 'Content-Type': 'application/json', 'Idempotency-Key': 'burst' },
          body: JSON.stringify({ name: 'burst' }),
        }),
      ),
    );
    const texts = await Promise.all(responses.map((r) => r.text()));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(texts).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await list()).toBe(before + 1);
  });

  it('§8: a second request arriving while the first is still running waits for it and replays it', async () => {
    const widgets = makeWidgetApp();
    const api = client(widgets.app);
    const send = () =>
      api
        .post('/v1/test/widgets')
        .set(bearer(KEYS.free))
        .set('Idempotency-Key', 'slow')
        .send({ name: 'w' })
        .then((r) => r);
    const [a, b] = await overlapping(widgets, send);
    expect(a.status).toBe(201);
    expect(b.text).toBe(a.text);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(widgets.controls.calls).toBe(1);
    expect(widgets.controls.widgets.size).toBe(1);
  });

  it('§8: a request with the same key but another payload does not wait: it is refused at once', async () => {
    const { app, controls } = makeWidgetApp();
    const api = client(app);
    const gate = deferred();
    controls.gate = gate.promise;
    const first = api
      .post('/v1/test/widgets')
      .set(bearer(KEYS.free))
      .set('Idempotency-Key', 'k')
      .send({ name: 'a' })
      .then((r) => r);
    await eventually(() => expect(controls.calls).toBe(1));
    const other = await api.post('/v1/test/widgets').set(bearer(KEYS.free)).set('Idempotency-Key', 'k').send({ name: 'b' });
    expectError(other, 'idempotency_key_reused', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyReused('k') });
    gate.resolve();
    expect((await first).status).toBe(201);
  });

  it('§7.3.5: when the first attempt is still running and then fails with 500, the waiting request runs on its own', async () => {
    const widgets = makeWidgetApp();
    const api = client(widgets.app);
    widgets.controls.failNext = 1;
    const send = () =>
      api
        .post('/v1/test/widgets')
        .set(bearer(KEYS.free))
        .set('Idempotency-Key', 'crash')
        .send({ name: 'w' })
        .then((r) => r);
    const [a, b] = await overlapping(widgets, send);
    expectError(a, 'internal_error', { message: MESSAGES.internal });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(widgets.controls.calls).toBe(2);
    expect(widgets.controls.widgets.size).toBe(1);
  });
});

describe('what is remembered (spec §7.3.5, §8)', () => {
  it.each(['exception', 'api_error'] as const)(
    '§7.3.5: a first attempt that ended in 500 (%s) is not remembered: the retry with the same key runs, and is then remembered',
    async (failWith) => {
      const { app, controls } = makeWidgetApp();
      const api = client(app);
      controls.failNext = 1;
      controls.failWith = failWith;
      const send = () => api.post('/v1/test/widgets').set(bearer(KEYS.free)).set('Idempotency-Key', 'retry-me').send({ name: 'w' });
      expectError(await send(), 'internal_error', { message: MESSAGES.internal });
      const retried = await send();
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      const replayed = await send();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.text).toBe(retried.text);
      expect(controls.calls).toBe(2);
      expect(controls.widgets.size).toBe(1);
    },
  );

  it('§8: a 404 decided by the operation is remembered and replayed in the envelope', async () => {
    const { app, controls } = makeWidgetApp();
    const api = client(app);
    const send = () =>
      api.post('/v1/test/widgets').set(bearer(KEYS.free)).set('Idempotency-Key', 'missing-ref').send({ name: 'w', ref: 'ref_gone' });
    const first = await send();
    const second = await send();
    expectError(first, 'resource_missing', { param: 'ref', message: "No such reference: 'ref_gone'." });
    expectError(second, 'resource_missing', { param: 'ref', message: "No such reference: 'ref_gone'." });
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(controls.calls).toBe(1);
  });

  it('§8: a 422 decided by the operation (a rule no schema says) is remembered too', async () => {
    const { app, controls } = makeWidgetApp();
    const api = client(app);
    const send = () =>
      api.post('/v1/test/widgets').set(bearer(KEYS.free)).set('Idempotency-Key', 'rule').send({ name: 'forbidden-by-rule' });
    const first = await send();
    const second = await send();
    expectError(second, 'validation_failed', { param: 'name', message: MESSAGES.validationFailed, errors: { name: ['is reserved'] } });
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(controls.calls).toBe(1);
  });

  it('§8: a DELETE with a key replays its result after the object is gone; without the key it would be 404', async () => {
    const { app } = makeWidgetApp();
    const api = client(app);
    const created = await api.post('/v1/test/widgets').set(bearer(KEYS.free)).send({ name: 'w' });
    const del = () => api.delete(`/v1/test/widgets/${created.body.id}`).set(bearer(KEYS.free)).set('Idempotency-Key', 'del');
    const first = await del();
    const second = await del();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const plain = await api.delete(`/v1/test/widgets/${created.body.id}`).set(bearer(KEYS.free));
    expectError(plain, 'resource_missing', { param: 'id', message: `No such widget: '${created.body.id}'.` });
  });

  it('§7.3.3: the same key on another method and path is another payload', async () => {
    const { app } = makeWidgetApp();
    const api = client(app);
    const created = await api.post('/v1/test/widgets').set(bearer(KEYS.free)).set('Idempotency-Key', 'one-key').send({ name: 'w' });
    const res = await api.delete(`/v1/test/widgets/${created.body.id}`).set(bearer(KEYS.free)).set('Idempotency-Key', 'one-key');
    expectError(res, 'idempotency_key_reused', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyReused('one-key') });
  });
});

describe('IdempotencyStore and the payload fingerprint', () => {
  it('§8: canonical JSON sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('§8: expired entries are dropped as the clock moves, without a timer', () => {
    const store = new IdempotencyStore();
    const t0 = Date.parse(FROZEN_AT);
    for (let i = 0; i < 5; i++) {
      const lookup = store.begin('acct', `k${i}`, 'fp', t0 + i * 1000);
      if (lookup.kind !== 'new') throw new Error('expected a new entry');
      lookup.finish({ status: 201, body: '{}', headers: {} });
    }
    expect(store.size).toBe(5);
    expect(store.begin('acct', 'k4', 'fp', t0 + IDEMPOTENCY_TTL_MS + 3999).kind).toBe('replay');
    // k0..k3 have expired by now; the lookup of k4 swept them.
    expect(store.size).toBe(1);
    const late = store.begin('acct', 'k4', 'fp', t0 + IDEMPOTENCY_TTL_MS + 4000);
    expect(late.kind).toBe('new');
  });

  it('§8: an entry that is not kept leaves no trace', () => {
    const store = new IdempotencyStore();
    const lookup = store.begin('acct', 'k', 'fp', 0);
    if (lookup.kind !== 'new') throw new Error('expected a new entry');
    lookup.finish(undefined);
    expect(store.size).toBe(0);
    expect(store.begin('acct', 'k', 'other', 0).kind).toBe('new');
  });
});
