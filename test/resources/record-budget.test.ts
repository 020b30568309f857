/**
 * The record budget (docs/api.md "Record budget"): what an account's records weigh is bounded in
 * bytes, per record (1 MiB of JSON, the body limit) and per account (`recordBudget`), counted as
 * each is written. Spec §2.5 calls metadata free-form and §4.7 merges it, and §8 pins no payload
 * limit, so the bounds are the sandbox's own: 422 (every growing operation lists 422), type
 * `validation_error` with `errors` (spec §7.1), extension codes `record_too_large` and
 * `record_budget_exceeded`. A refused write changes nothing. Bytes are read from the store's own
 * count, never from RSS.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/protocol/body-limit.js';
import { jobAdmissionBytes, JOB_MEMBERS_BYTES, JOB_SETTLED_GROWTH_BYTES } from '../../src/jobs/create.js';
import { RECORD_LIMIT_BYTES, recordBytes } from '../../src/store/record-meter.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { PINNED, stateOf } from '../support/resources.js';
import type request from 'supertest';
import type { MockApp } from '../../src/app.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const INBOX = `/v1/email/inboxes/${PINNED.free.inbox}`;

/** The refusal: 422, the code, `param` and `errors` naming the same member (spec §7.1). */
function expectRefused(res: request.Response, code: 'record_too_large' | 'record_budget_exceeded', param: string, api = true): void {
  expectError(res, code, { param, errors: { [param]: [expect.any(String)] }, api });
}

function bytesOf(app: MockApp, accountId: string): number {
  return app.sandbox.world.store.forAccount(accountId)!.recordBytes;
}

/** A PATCH of the pinned inbox adding metadata key `key` of `size` characters (spec §4.7 merges it in). */
function patchKey(app: MockApp, key: string, size: number, token: string = KEYS.free, inbox = INBOX) {
  return client(app)
    .patch(inbox)
    .set(bearer(token))
    .type('json')
    .send(JSON.stringify({ metadata: { [key]: 'x'.repeat(size) } }));
}

/** One conversion event carrying `size` characters in a member of its own. */
function convert(
  app: MockApp,
  sizes: number[],
  token: string = KEYS.free,
  destination: { adAccount: string; destination: string } = PINNED.free,
) {
  return client(app)
    .post('/v1/ads/conversions')
    .set(bearer(token))
    .send({
      account_id: destination.adAccount,
      destination_id: destination.destination,
      events: sizes.map((size) => ({ event_name: 'Lead', event_time: 1_768_478_400, custom_data: { note: 'y'.repeat(size) } })),
    });
}

describe('one record weighs at most 1 MiB of JSON', () => {
  it('the record bound is the request body limit', () => {
    expect(RECORD_LIMIT_BYTES).toBe(BODY_LIMIT_BYTES);
  });

  it('spec §4.7: PATCHes adding a new 1 MB metadata key each time are refused past 1 MiB (422 record_too_large naming metadata) and change nothing', async () => {
    const app = makeApp();
    const first = await patchKey(app, 'k0', 1_000_000);
    expect(first.status).toBe(200);
    const after = bytesOf(app, ACCOUNTS.free);
    for (let i = 1; i < 6; i++) {
      const res = await patchKey(app, `k${i}`, 1_000_000);
      expectRefused(res, 'record_too_large', 'metadata');
      expect(res.body.error.type).toBe('validation_error');
    }
    expect(bytesOf(app, ACCOUNTS.free)).toBe(after);
    const inbox = (await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)!;
    expect(Object.keys(inbox.metadata)).toContain('k0');
    expect(Object.keys(inbox.metadata)).not.toContain('k1');
    // Replacing the key, or removing it, is always possible: the record does not grow.
    expect((await patchKey(app, 'k0', 900_000)).status).toBe(200);
    const removed = await client(app)
      .patch(INBOX)
      .set(bearer(KEYS.free))
      .send({ metadata: { k0: null } });
    expect(removed.status).toBe(200);
    expect(bytesOf(app, ACCOUNTS.free)).toBeLessThan(after - 900_000);
  });

  it('a display name alone that would pass the bound is refused naming display_name', async () => {
    const app = makeApp();
    expect((await patchKey(app, 'k0', 1_000_000)).status).toBe(200);
    const res = await client(app)
      .patch(INBOX)
      .set(bearer(KEYS.free))
      .send({ display_name: 'd'.repeat(60_000) });
    expectRefused(res, 'record_too_large', 'display_name');
  });
});

describe('an account holds at most recordBudget bytes of records', () => {
  it('writes past the budget are refused with 422 record_budget_exceeded; the account stays within it and other tenants are unaffected', async () => {
    const app = makeApp({ recordBudget: '2MiB' });
    let refused = 0;
    for (let i = 0; i < 12; i++) {
      const res = await convert(app, [300_000]);
      if (res.status === 422) {
        expectRefused(res, 'record_budget_exceeded', 'events');
        refused += 1;
      } else expect(res.status).toBe(200);
      expect(bytesOf(app, ACCOUNTS.free)).toBeLessThanOrEqual(2 * MIB);
    }
    expect(refused).toBeGreaterThan(4);
    // Another account of the sandbox writes as before.
    expect((await convert(app, [300_000], KEYS.paid, PINNED.paid)).status).toBe(200);
    // And the full account still answers everything that does not grow it.
    expect((await client(app).get('/v1/auth/keys').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('a request that writes several records writes all or none: conversions, and a form submission with its customer and delivery', async () => {
    const app = makeApp({ recordBudget: '512KiB' });
    const before = (await stateOf(app, ACCOUNTS.free)).conversions.length;
    // The first two events fit, the third does not: none is recorded.
    expectRefused(await convert(app, [150_000, 150_000, 300_000]), 'record_budget_exceeded', 'events');
    expect((await stateOf(app, ACCOUNTS.free)).conversions).toHaveLength(before);
    expect((await convert(app, [150_000, 150_000])).status).toBe(200);

    const customers = (await stateOf(app, ACCOUNTS.free)).customers.length;
    const submissions = (await stateOf(app, ACCOUNTS.free)).form_submissions.length;
    const res = await client(app)
      .post('/v1/form_submissions')
      .set(bearer(KEYS.free))
      .send({ form_id: PINNED.free.newsletterForm, email: 'big@example.com', name: 'n'.repeat(300_000) });
    expectRefused(res, 'record_budget_exceeded', 'answers');
    const state = await stateOf(app, ACCOUNTS.free);
    expect([state.customers.length, state.form_submissions.length, state.deliveries.length]).toEqual([customers, submissions, 0]);
  });

  it('a refused write draws no id: the next record gets the id it would have got without it', async () => {
    const ids = async (refusedFirst: boolean) => {
      const app = makeApp({ recordBudget: '1MiB' });
      expect((await convert(app, [900_000])).status).toBe(200);
      if (refusedFirst) {
        expectRefused(await convert(app, [200_000]), 'record_budget_exceeded', 'events');
        const key = await client(app)
          .post('/v1/auth/keys')
          .set(bearer(KEYS.free))
          .send({ name: 'k'.repeat(200_000) });
        expectRefused(key, 'record_budget_exceeded', 'name');
      }
      const made = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
      expect(made.status).toBe(201);
      return made.body.id as string;
    };
    expect(await ids(true)).toBe(await ids(false));
  });

  it('a crawl is weighed before its job is made: past the budget it is 422 naming url and no job exists', async () => {
    const app = makeApp({ recordBudget: '160KiB' });
    // Room for a completed job, not for what a crawl is admitted by (the longest failure a rule can set).
    const room = await leaveRoom(app, 4000);
    expect(room).toBeLessThan(jobAdmissionBytes({ url: 'https://example.com/', max_pages: 1, max_depth: 1 }));
    const res = await client(app)
      .post('/v1/web/crawl')
      .set(bearer(KEYS.free))
      .send({ url: 'https://example.com/', max_pages: 1, max_depth: 1 });
    expectRefused(res, 'record_budget_exceeded', 'url');
    expect((await stateOf(app, ACCOUNTS.free)).jobs).toHaveLength(0);
  });

  it('a job is counted as it will weigh once ended, and a job that completes weighs at most its input plus JOB_MEMBERS_BYTES', async () => {
    const app = makeApp();
    const res = await client(app)
      .post('/v1/web/crawl')
      .set(bearer(KEYS.free))
      .send({ url: `https://example.com/${'p'.repeat(2000)}`, max_pages: 3, max_depth: 1 });
    expect(res.status).toBe(201);
    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const queued = store.collection('jobs').get(res.body.id)!;
    const counted = store.recordBytes;
    expect(recordBytes(queued) + JOB_SETTLED_GROWTH_BYTES).toBeLessThanOrEqual(recordBytes(queued.input) + JOB_MEMBERS_BYTES);
    // Once ended, its timestamps and ids filled in place, it weighs no more than it was counted as.
    expect((await client(app).post('/__admin/clock/advance').send({ until: 'idle' })).status).toBe(200);
    const ended = store.collection('jobs').get(res.body.id)!;
    expect(ended.status).toBe('completed');
    expect(recordBytes(ended)).toBeLessThanOrEqual(recordBytes(queued) + JOB_SETTLED_GROWTH_BYTES);
    expect(store.recordBytes).toBe(counted);
  });

  it('contract §4.1: an account reset brings the count back to its birth, and deleting records gives their bytes back', async () => {
    const app = makeApp({ recordBudget: '2MiB' });
    const born = bytesOf(app, ACCOUNTS.free);
    for (let i = 0; i < 6; i++) await convert(app, [500_000]);
    expect(bytesOf(app, ACCOUNTS.free)).toBeGreaterThan(MIB);
    expect((await client(app).post(`/__admin/accounts/${ACCOUNTS.free}/reset`)).status).toBe(200);
    expect(bytesOf(app, ACCOUNTS.free)).toBe(born);
    expect((await convert(app, [500_000])).status).toBe(200);

    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const before = store.recordBytes;
    const discount = store.collection('discounts').get(PINNED.free.discount)!;
    expect((await client(app).delete(`/v1/discounts/${PINNED.free.discount}`).set(bearer(KEYS.free))).status).toBe(200);
    // The seeded discounts counted from the account's birth: the deleted one gives back what it weighed.
    expect(store.recordBytes).toBe(before - recordBytes(discount));
  });

  it('GET /__admin/accounts/{id} stays bounded however many new 1 MB metadata keys are sent', async () => {
    const app = makeApp();
    for (let i = 0; i < 20; i++) await patchKey(app, `k${i}`, 1_000_000);
    const res = await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`);
    expect(res.status).toBe(200);
    expect(res.text.length).toBeLessThan(2 * MIB);
  });
});

describe('accounts are born within the record budget', () => {
  it('a fixture account whose pinned records pass the budget stops the boot, naming the file and the pinned record', () => {
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
      accounts: { pinned?: { inboxes?: { metadata?: unknown }[] } }[];
    };
    const inbox = fixture.accounts[0]!.pinned!.inboxes![0]!;
    inbox.metadata = { note: 'z'.repeat(300_000) };
    const dir = mkdtempSync(path.join(tmpdir(), 'record-budget-'));
    const file = path.join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(fixture));
    try {
      expect(() => makeApp({ fixtures: file, recordBudget: '256KiB' })).toThrow(
        expect.objectContaining({ name: 'FixtureError', file, pointer: '/accounts/0/pinned/inboxes/0' }),
      );
      expect(() => makeApp({ fixtures: file })).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('POST /__admin/accounts with pinned records over the budget is 422 record_budget_exceeded naming the pinned record', async () => {
    const app = makeApp({ recordBudget: '256KiB' });
    const res = await client(app)
      .post('/__admin/accounts')
      .send({
        pinned: {
          inboxes: [
            { id: 'inbox_a', metadata: { note: 'a'.repeat(200_000) } },
            { id: 'inbox_b', metadata: { note: 'b'.repeat(200_000) } },
          ],
        },
      });
    expectRefused(res, 'record_budget_exceeded', 'pinned.inboxes.1', false);
    const list = await client(app).get('/__admin/accounts?limit=100');
    expect(list.body.data).toHaveLength(2);
  });

  it.each([
    [
      'pinned records that pass it only with the template',
      { pinned: { inboxes: [{ id: 'inbox_a', metadata: { note: 'a'.repeat(250_000) } }] } },
    ],
    [
      'an inline template whose records pass it',
      { template: { credits: { free: 1000, paid: 100000 }, counts: { messages_per_inbox: 200 } } },
    ],
  ])('a creation refused for %s draws no account id: the next account gets the id it would have got without it', async (_what, body) => {
    const refusing = makeApp({ recordBudget: '256KiB' });
    const refused = await client(refusing).post('/__admin/accounts').send(body);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('record_budget_exceeded');
    const after = await client(refusing).post('/__admin/accounts').send({ name: 'next' });
    const twin = makeApp({ recordBudget: '256KiB' });
    const without = await client(twin).post('/__admin/accounts').send({ name: 'next' });
    expect(after.status).toBe(201);
    expect(after.body.account.id).toBe(without.body.account.id);
  });

  it('contract §5.3: a snapshot whose records pass the budget is 422 record_budget_exceeded naming the record; nothing is made', async () => {
    const source = makeApp();
    const made = await client(source)
      .post('/__admin/accounts')
      .send({ pinned: { inboxes: [{ id: 'inbox_a', metadata: { note: 'a'.repeat(200_000) } }] } });
    expect(made.status).toBe(201);
    const id = made.body.account.id as string;
    const snapshot = (await client(source).get(`/__admin/accounts/${id}/snapshot`)).body;
    const target = makeApp({ recordBudget: '128KiB' });
    const res = await client(target).post('/__admin/accounts').send({ snapshot });
    const param = res.body.error.param as string;
    expect(param).toMatch(/^snapshot\.records\.inboxes\.\d+$/);
    expectRefused(res, 'record_budget_exceeded', param, false);
    expect((await client(target).get(`/__admin/accounts/${id}`)).status).toBe(404);
    // With room, it loads.
    expect((await client(makeApp()).post('/__admin/accounts').send({ snapshot })).status).toBe(201);
  });
});

/** Fills the free account with conversion events until about `room` bytes are left of its budget; what is left. */
async function leaveRoom(app: MockApp, room: number): Promise<number> {
  const left = () => app.sandbox.world.store.forAccount(ACCOUNTS.free)!.recordBudget - bytesOf(app, ACCOUNTS.free);
  // A conversion record weighs its `note` plus a few hundred bytes of its own members (their digits vary a little).
  const before = bytesOf(app, ACCOUNTS.free);
  expect((await convert(app, [1])).status).toBe(200);
  const overhead = bytesOf(app, ACCOUNTS.free) - before - 1;
  expect((await convert(app, [left() - room - overhead])).status).toBe(200);
  expect(Math.abs(left() - room)).toBeLessThan(100);
  return left();
}

describe('a refusal changes nothing, and the count is what the records weigh', () => {
  it('a crawl refused by the budget leaves a job scenario its `times` and the id stream as it was, even with the longest error a rule can set', async () => {
    const next = async (refusedFirst: boolean) => {
      const app = makeApp({ recordBudget: '160KiB' });
      await leaveRoom(app, 6000);
      const activated = await client(app)
        .post('/__admin/scenarios')
        .send({ name: 'crawl-fails', account_id: ACCOUNTS.free, times: 2, params: { error: '\u0001'.repeat(1000) } });
      expect(activated.status).toBe(201);
      if (refusedFirst) {
        const res = await client(app).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
        expectRefused(res, 'record_budget_exceeded', 'url');
      }
      const active = (await client(app).get('/__admin/scenarios')).body.active as { id: string; remaining: number }[];
      const key = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
      return { remaining: active.find((s) => s.id === activated.body.id)!.remaining, key: key.body.id as string };
    };
    const refused = await next(true);
    expect(refused.remaining).toBe(2);
    expect(refused).toEqual(await next(false));
  });

  it('a failed job with the longest error a rule can set, all control characters, weighs no more than a crawl is admitted by', async () => {
    const app = makeApp();
    expect(
      (
        await client(app)
          .post('/__admin/scenarios')
          .send({ name: 'crawl-fails', account_id: ACCOUNTS.free, times: 1, params: { error: '\u0001'.repeat(1000) } })
      ).status,
    ).toBe(201);
    const before = bytesOf(app, ACCOUNTS.free);
    const res = await client(app).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
    expect(res.status).toBe(201);
    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const job = store.collection('jobs').get(res.body.id)!;
    expect(bytesOf(app, ACCOUNTS.free) - before).toBeLessThanOrEqual(jobAdmissionBytes(job.input));
    expect((await client(app).post('/__admin/clock/advance').send({ until: 'idle' })).status).toBe(200);
    const ended = store.collection('jobs').get(res.body.id)!;
    expect(ended.status).toBe('failed');
    expect(recordBytes(ended)).toBeLessThanOrEqual(bytesOf(app, ACCOUNTS.free) - before);
  });

  it('a refused write to a seeded collection the account never wrote leaves record_bytes as it was, and a delete lowers it', async () => {
    const app = makeApp({ recordBudget: '160KiB' });
    await leaveRoom(app, 500);
    const before = bytesOf(app, ACCOUNTS.free);
    expectRefused(await patchKey(app, 'big', 1000), 'record_budget_exceeded', 'metadata');
    expect(bytesOf(app, ACCOUNTS.free)).toBe(before);
    const state = await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`);
    expect(state.body.record_bytes).toBe(before);
    const discount = app.sandbox.world.store.forAccount(ACCOUNTS.free)!.collection('discounts').get(PINNED.free.discount)!;
    expect((await client(app).delete(`/v1/discounts/${PINNED.free.discount}`).set(bearer(KEYS.free))).status).toBe(200);
    expect(bytesOf(app, ACCOUNTS.free)).toBe(before - recordBytes(discount));
  });

  it('POST /__admin/accounts whose first key does not fit the budget is 422 and leaves no account behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'record-budget-'));
    const file = path.join(dir, 'empty.json');
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as { accounts: unknown[] };
    fixture.accounts = [];
    writeFileSync(file, JSON.stringify(fixture));
    try {
      const app = makeApp({ fixtures: file, recordBudget: 100 });
      const res = await client(app).post('/__admin/accounts').send({ name: 'x' });
      expectRefused(res, 'record_budget_exceeded', 'fixture', false);
      expect((await client(app).get('/__admin/accounts?limit=100')).body.data).toEqual([]);
      // Nothing was drawn: the next account gets the id a first one gets.
      const roomy = makeApp({ fixtures: file });
      const first = await client(roomy).post('/__admin/accounts').send({ name: 'x' });
      expect(first.status).toBe(201);
      expect(app.sandbox.world.ids.next('acct')).toBe(first.body.account.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('contract §5.3: an account loaded from a snapshot counts its records as the account it was taken from did, unfinished jobs included', async () => {
    const app = makeApp({ clock: '2026-01-15T12:00:00Z' });
    const made = await client(app).post('/__admin/accounts').send({});
    const id = made.body.account.id as string;
    for (let i = 0; i < 3; i++) {
      const res = await client(app)
        .post('/v1/web/crawl')
        .set(bearer(made.body.api_key.token))
        .send({ url: `https://example.com/${i}` });
      expect(res.status).toBe(201);
    }
    const counted = bytesOf(app, id);
    const snapshot = (await client(app).get(`/__admin/accounts/${id}/snapshot`)).body;
    expect((await client(app).delete(`/__admin/accounts/${id}`)).status).toBe(200);
    expect((await client(app).post('/__admin/accounts').send({ snapshot, clock: 'frozen' })).status).toBe(201);
    expect(bytesOf(app, id)).toBe(counted);
  });

  it('an API key counts what authentication, expiry and revocation write into it', async () => {
    const app = makeApp();
    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const made = await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'ci' });
    const weighKeys = () =>
      store
        .collection('api_keys')
        .values()
        .reduce((sum, key) => sum + recordBytes(key), 0);
    const before = bytesOf(app, ACCOUNTS.free) - weighKeys();
    expect((await client(app).get('/v1/auth/keys').set(bearer(made.body.token))).status).toBe(200);
    expect(bytesOf(app, ACCOUNTS.free) - weighKeys()).toBe(before);
    expect((await client(app).post(`/__admin/api_keys/${made.body.id}/expire`)).status).toBe(200);
    expect((await client(app).post(`/__admin/api_keys/${made.body.id}/revoke`)).status).toBe(200);
    expect(bytesOf(app, ACCOUNTS.free) - weighKeys()).toBe(before);
  });
});
