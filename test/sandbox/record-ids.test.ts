/**
 * Same seed + same requests = same bytes, per tenant, whatever other tenants do (contract §4.1): the
 * ids of what an account's requests make (keys and their tokens, jobs, form submissions and their
 * deliveries, customers made by matching, event sessions, conversions) come from streams of that
 * account's, so another tenant's traffic, absent, before or interleaved, never moves them.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS, bearer, client, makeApp } from '../support/harness.js';
import { PINNED } from '../support/resources.js';

type Api = ReturnType<typeof client>;
type Neighbour = 'absent' | 'before' | 'interleaved';

const SEED = 'record-ids-per-tenant';
/** The account tenant A makes with its own id: its Default key must not depend on the neighbours either. */
const WORKER = 'acct_worker_a';

function ok(res: { status: number; text: string }): string {
  expect(res.status, res.text).toBeLessThan(300);
  return res.text;
}

/** Tenant B (the paid default account, and accounts made by the admin without an id) making records of every kind. */
async function neighbourTraffic(api: Api): Promise<void> {
  const auth = bearer(KEYS.paid);
  ok(await api.post('/v1/auth/keys').set(auth).send({ name: 'b' }));
  ok(await api.post('/__admin/api_keys').send({ account_id: ACCOUNTS.paid, name: 'b-admin' }));
  ok(await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/b' }));
  ok(await api.post('/v1/form_submissions').set(auth).send({ form_id: PINNED.paid.newsletterForm, email: 'b@example.com' }));
  ok(
    await api
      .post(`/v1/experiences/${PINNED.paid.workshop}/event_sessions`)
      .set(auth)
      .send({ title: 'B', start_time: '2026-02-01T17:00:00Z' }),
  );
  ok(await api.post('/__admin/accounts').send({}));
}

/** Everything tenant A sees of its records, with tenant B's traffic as `neighbour` says. */
async function tenantA(neighbour: Neighbour, ownClock: boolean): Promise<string[]> {
  const api = client(makeApp({ seed: SEED }));
  const A = ACCOUNTS.free;
  const auth = bearer(KEYS.free);
  const between = async () => {
    if (neighbour === 'interleaved') await neighbourTraffic(api);
  };
  const seen: string[] = [];
  if (neighbour === 'before') await neighbourTraffic(api);
  if (ownClock) ok(await api.post(`/__admin/accounts/${A}/clock`).send({}));
  seen.push(ok(await api.post('/v1/auth/keys').set(auth).send({ name: 'ci' })));
  await between();
  seen.push(ok(await api.post('/__admin/api_keys').send({ account_id: A, name: 'admin' })));
  seen.push(ok(await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/a' })));
  await between();
  seen.push(ok(await api.post('/v1/form_submissions').set(auth).send({ form_id: PINNED.free.newsletterForm, email: 'a@example.com' })));
  seen.push(
    ok(
      await api
        .post(`/v1/experiences/${PINNED.free.workshop}/event_sessions`)
        .set(auth)
        .send({ title: 'A', start_time: '2026-02-01T17:00:00Z' }),
    ),
  );
  seen.push(
    ok(
      await api
        .post('/v1/ads/conversions')
        .set(auth)
        .send({
          account_id: PINNED.free.adAccount,
          destination_id: PINNED.free.destination,
          events: [{ event_name: 'Lead', event_time: Date.parse('2026-01-15T12:00:00Z') / 1000, user_data: { email: 'a@example.com' } }],
        }),
    ),
  );
  await between();
  // An account made with its own id: its id, Default key and token are the tenant's, like its records.
  const worker = JSON.parse(ok(await api.post('/__admin/accounts').send({ id: WORKER }))) as { api_key: { token: string } };
  seen.push(JSON.stringify(worker));
  await between();
  seen.push(ok(await api.post('/v1/web/crawl').set(bearer(worker.api_key.token)).send({ url: 'https://example.com/w' })));
  seen.push(ok(await api.get(`/__admin/accounts/${A}`)));
  seen.push(ok(await api.get(`/__admin/accounts/${WORKER}`)));
  seen.push(ok(await api.get('/v1/auth/keys').set(auth)));
  // The journal of A's requests, but for two things that are not A's: request ids count every
  // tenant's requests (a sandbox-wide counter, docs/parallel-tenants.md), and each test client
  // sends a Host of its own ephemeral port.
  for (const account of [A, WORKER]) {
    const journal = ok(await api.get('/__admin/requests').query({ account_id: account, limit: 100 }));
    seen.push(journal.replace(/req_[0-9]+/g, 'req_…').replace(/"host":"127\.0\.0\.1:[0-9]+"/g, '"host":"…"'));
  }
  return seen;
}

describe('record ids are per tenant: same seed + same requests = same bytes, whatever other tenants do', () => {
  it.each([false, true])(
    'contract §4.1: tenant A (own clock: %s) gets the same key ids and tokens, job, submission, delivery, customer, session and conversion ids with tenant B absent, before it or interleaved',
    async (ownClock) => {
      const alone = await tenantA('absent', ownClock);
      const text = alone.join('\n');
      for (const prefix of ['key', 'job', 'fsub', 'dlv', 'cus', 'evs', 'conv'])
        expect(text).toMatch(new RegExp(`"${prefix}_[0-9A-Za-z]{24}"`));
      expect(text).toMatch(/"cc_test_[0-9A-Za-z]{32}"/);
      expect(await tenantA('before', ownClock)).toEqual(alone);
      expect(await tenantA('interleaved', ownClock)).toEqual(alone);
    },
  );
});

describe('record ids are never given twice while the world lives', () => {
  it('contract §4.1: after an account reset, new keys get new ids and tokens (a token made before the reset stays 401), the same in every sandbox of the seed', async () => {
    const run = async () => {
      const api = client(makeApp({ seed: 'record-ids-reset' }));
      const made = await api.post('/__admin/accounts').send({ id: WORKER });
      const auth = bearer(made.body.api_key.token as string);
      const before = (await api.post('/v1/auth/keys').set(auth).send({ name: 'ci' })).body as { id: string; token: string };
      const jobBefore = (await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/' })).body as { id: string };
      ok(await api.post(`/__admin/accounts/${WORKER}/reset`));
      expect((await api.get('/v1/auth/keys').set(bearer(before.token))).status).toBe(401);
      const after = (await api.post('/v1/auth/keys').set(auth).send({ name: 'ci' })).body as { id: string; token: string };
      const jobAfter = (await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/' })).body as { id: string };
      expect(after.id).not.toBe(before.id);
      expect(after.token).not.toBe(before.token);
      expect(jobAfter.id).not.toBe(jobBefore.id);
      expect((await api.get('/v1/auth/keys').set(bearer(before.token))).status).toBe(401);
      return [before.id, before.token, after.id, after.token, jobBefore.id, jobAfter.id];
    };
    expect(await run()).toEqual(await run());
  });

  it('contract §4.1: POST /__admin/reset starts the streams over, like a fresh boot', async () => {
    const app = makeApp({ seed: 'record-ids-boot' });
    const api = client(app);
    const first = (await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' })).body as { id: string; token: string };
    ok(await api.post('/__admin/reset'));
    const again = (await api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' })).body as { id: string; token: string };
    expect([again.id, again.token]).toEqual([first.id, first.token]);
  });

  it('contract §5.3: an account loaded from a snapshot never gets an id or token the snapshot holds', async () => {
    const origin = client(makeApp({ seed: 'record-ids-snapshot' }));
    const made = await origin.post('/__admin/accounts').send({ id: WORKER });
    const auth = bearer(made.body.api_key.token as string);
    const key = (await origin.post('/v1/auth/keys').set(auth).send({ name: 'ci' })).body as { id: string; token: string };
    const job = (await origin.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/' })).body as { id: string };
    const snapshot = (await origin.get(`/__admin/accounts/${WORKER}/snapshot`)).body as unknown;

    const here = client(makeApp({ seed: 'record-ids-snapshot' }));
    expect((await here.post('/__admin/accounts').send({ snapshot })).status).toBe(201);
    // Same seed, same account: its streams' first draws are the loaded records'.
    const nextKey = JSON.parse(ok(await here.post('/v1/auth/keys').set(auth).send({ name: 'ci' }))) as { id: string; token: string };
    const nextJob = JSON.parse(ok(await here.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/' }))) as { id: string };
    expect(nextKey.id).not.toBe(key.id);
    expect(nextKey.token).not.toBe(key.token);
    expect(nextJob.id).not.toBe(job.id);
    expect(nextKey.id).not.toBe(made.body.api_key.id);
    expect(nextKey.token).not.toBe(made.body.api_key.token);
  });
});

describe('POST /__admin/accounts with an own id', () => {
  it('contract §4.1: the id is taken as given; one in use is 409 resource_exists; with a snapshot it is 422', async () => {
    const api = client(makeApp());
    const made = await api.post('/__admin/accounts').send({ id: WORKER, plan: 'paid' });
    expect(made.status).toBe(201);
    expect(made.body.account.id).toBe(WORKER);
    expect((await api.get('/v1/auth/keys').set(bearer(made.body.api_key.token as string))).status).toBe(200);
    const again = await api.post('/__admin/accounts').send({ id: WORKER });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('resource_exists');
    expect((await api.post('/__admin/accounts').send({ id: ACCOUNTS.free })).status).toBe(409);
    expect((await api.post('/__admin/accounts').send({ id: 'cus_nope' })).status).toBe(422);
    const snapshot = (await api.get(`/__admin/accounts/${WORKER}/snapshot`)).body as unknown;
    expect((await api.post('/__admin/accounts').send({ id: 'acct_other', snapshot })).status).toBe(422);
  });
});
