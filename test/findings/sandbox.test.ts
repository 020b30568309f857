/**
 * Contract §5.1 end to end: findings raised by real requests on loopback, listed by the admin API,
 * named on the journal entries that raised them, kept with the journal off, and dropped by account
 * reset and delete and by `POST /__admin/reset`.
 */
import { describe, expect, it } from 'vitest';
import { expectNoFindings, FindingsError } from '../../src/findings/expect-no-findings.js';
import { startReceiver } from '../support/receiver.js';
import { call, newTenant, rules, useSandbox } from './support.js';

const sandbox = useSandbox();

describe('contract §5.1: findings of real requests', () => {
  it('retry-after-ignored: a request right after a 429 with Retry-After; its journal entry lists the finding', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    const limited = await call(mock, tenant, 'GET', '/status', { headers: { Prefer: 'scenario=rate-limited; retry_after=30' } });
    expect(limited?.status).toBe(429);
    const next = await call(mock, tenant, 'GET', '/status');
    const [finding] = (await tenant.findings()).data;
    expect(finding).toMatchObject({
      rule: 'retry-after-ignored',
      account_id: tenant.id,
      api_key_id: tenant.api_key.id,
      operation_id: 'getStatus',
    });
    expect(finding!.request_ids).toEqual([limited!.headers.get('request-id'), next!.headers.get('request-id')]);
    expect(finding!.message).toContain('Retry-After: 30');
    const journal = await mock.admin.requests.list({ account_id: tenant.id });
    expect(journal.data.map((e) => e.finding_ids)).toEqual([[finding!.id], []]);
  });

  it('write-retried-without-idempotency-key: a POST retried at once after a `when: "after"` fault; the write happened twice', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'connection-reset', account_id: tenant.id, times: 1, params: { when: 'after' } });
    const body = { name: 'ci key' };
    expect(await call(mock, tenant, 'POST', '/auth/keys', { body })).toBeNull();
    expect((await call(mock, tenant, 'POST', '/auth/keys', { body }))?.status).toBe(201);
    const [finding] = (await tenant.findings()).data;
    expect(finding).toMatchObject({ rule: 'write-retried-without-idempotency-key', operation_id: 'createApiKey' });
    expect(finding!.message).toContain('twice');
    expect(finding!.request_ids).toHaveLength(2);
    // Both attempts ran: the journal shows two 201s (the first one's answer was lost on the way).
    const entries = (await mock.admin.requests.list({ account_id: tenant.id })).data;
    expect(entries.map((e) => [e.status, e.fault])).toEqual([
      [201, null],
      [201, 'connection-reset'],
    ]);
  });

  it('contract §5: a body answered early by a scenario still counts in "the same request"', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 2 });
    // The scenario's 500 comes before the operation reads the body; another body is another request.
    expect((await call(mock, tenant, 'POST', '/auth/keys', { body: { name: 'a' } }))?.status).toBe(500);
    expect((await call(mock, tenant, 'POST', '/auth/keys', { body: { name: 'b' } }))?.status).toBe(500);
    expect(await rules(tenant)).toEqual([]);
    expect((await call(mock, tenant, 'POST', '/auth/keys', { body: { name: 'b' } }))?.status).toBe(201);
    expect(await rules(tenant)).toEqual(['write-retried-without-idempotency-key']);
  });

  it('idempotency-key-reused and non-retryable-retried', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    const headers = { 'Idempotency-Key': 'one-write' };
    await call(mock, tenant, 'POST', '/auth/keys', { body: { name: 'a' }, headers });
    expect((await call(mock, tenant, 'POST', '/auth/keys', { body: { name: 'b' }, headers }))?.status).toBe(400);
    await call(mock, tenant, 'GET', '/jobs/job_missing');
    await call(mock, tenant, 'GET', '/jobs/job_missing');
    expect(await rules(tenant)).toEqual(['idempotency-key-reused', 'non-retryable-retried']);
  });

  it('job-polled-too-often: ten quick reads of a processing job; a poller that advances the clock a second each time raises nothing', async () => {
    const { mock } = sandbox;
    const tight = await newTenant(mock, { clock: 'frozen' });
    const created = await call(mock, tight, 'POST', '/web/crawl', { body: { url: 'https://example.com/' } });
    const job = (await mock.admin.requests.list({ account_id: tight.id, limit: 10 })).data.find((e) => e.operation_id === 'crawlSite')!;
    const jobId = (job.response!.body as { id: string }).id;
    expect(created?.status).toBe(201);
    for (let i = 0; i < 10; i += 1) await call(mock, tight, 'GET', `/jobs/${jobId}`);
    expect(await rules(tight)).toContain('job-polled-too-often');

    const patient = await newTenant(mock, { clock: 'frozen' });
    await call(mock, patient, 'POST', '/web/crawl', { body: { url: 'https://example.com/' } });
    const patientJob = (await mock.admin.requests.list({ account_id: patient.id, limit: 1 })).data[0]!;
    const patientId = (patientJob.response!.body as { id: string }).id;
    for (let i = 0; i < 12; i += 1) {
      await call(mock, patient, 'GET', `/jobs/${patientId}`);
      await patient.clock.advance(1);
    }
    await expectNoFindings(patient);
  });

  it('deprecated-operation-called: once per account and operation, naming the Sunset', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'deprecated-operations', account_id: tenant.id, operation_id: 'getStatus' });
    await call(mock, tenant, 'GET', '/status');
    await call(mock, tenant, 'GET', '/status');
    const { data } = await tenant.findings();
    expect(data.map((f) => f.rule)).toEqual(['deprecated-operation-called']);
    expect(data[0]!.message).toContain('2027-01-01T00:00:00.000Z');
  });

  it('webhook-signature-not-verified: a receiver answers 2xx to a delivery signed with a wrong secret', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    const receiver = await startReceiver(() => 204);
    try {
      await mock.admin.webhooks.createEndpoint({ account_id: tenant.id, url: receiver.url, events: ['*'] });
      await mock.admin.scenarios.activate({ name: 'webhooks-badly-signed', account_id: tenant.id });
      const event = await mock.admin.webhooks.trigger({ account_id: tenant.id, type: 'job.completed' });
      await receiver.received(1);
      await expect.poll(() => rules(tenant)).toEqual(['webhook-signature-not-verified']);
      const [finding] = (await tenant.findings()).data;
      const [delivery] = (await mock.admin.webhooks.deliveries({ account_id: tenant.id })).data;
      expect(finding).toMatchObject({ delivery_ids: [delivery!.id], request_ids: [], api_key_id: null });
      expect(delivery!.event.id).toBe(event.id);
    } finally {
      await receiver.close();
    }
  });

  it('webhook-delivery-failed: a delivery ends failed after its last retry', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { clock: 'frozen' });
    const receiver = await startReceiver(() => 500);
    try {
      await mock.admin.webhooks.createEndpoint({ account_id: tenant.id, url: receiver.url, events: ['*'] });
      await mock.admin.webhooks.trigger({ account_id: tenant.id, type: 'job.completed' });
      await receiver.received(1);
      // The retries fall due on the account's clock: 28 hours cover all seven.
      for (let i = 0; i < 8; i += 1) await tenant.clock.advance(4 * 3600);
      await receiver.received(8);
      await expect.poll(() => rules(tenant)).toEqual(['webhook-delivery-failed']);
    } finally {
      await receiver.close();
    }
  });

  it('webhook-delivery-failed: a delivery that ends because its endpoint was deleted does not count', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { clock: 'frozen' });
    const receiver = await startReceiver(() => 500);
    try {
      const endpoint = await mock.admin.webhooks.createEndpoint({ account_id: tenant.id, url: receiver.url, events: ['*'] });
      await mock.admin.webhooks.trigger({ account_id: tenant.id, type: 'job.completed' });
      await receiver.received(1);
      await expect.poll(async () => (await mock.admin.webhooks.deliveries({ account_id: tenant.id })).data[0]?.attempts.length).toBe(1);
      await mock.admin.webhooks.deleteEndpoint(endpoint.id);
      const [delivery] = (await mock.admin.webhooks.deliveries({ account_id: tenant.id })).data;
      expect(delivery!.status).toBe('failed');
      expect(await rules(tenant)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('contract §5.1: the admin routes', () => {
  it('lists newest first with filters, limit and starting_after; refuses unknown rules and cursors', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    for (let i = 0; i < 4; i += 1) await call(mock, tenant, 'GET', `/jobs/job_none_${i % 2}`);
    const all = await mock.admin.findings.list({ account_id: tenant.id });
    expect(all.data.map((f) => f.rule)).toEqual(['non-retryable-retried', 'non-retryable-retried']);
    const first = await mock.admin.findings.list({ account_id: tenant.id, limit: 1 });
    expect(first).toMatchObject({ object: 'list', has_more: true });
    const second = await mock.admin.findings.list({ account_id: tenant.id, limit: 1, starting_after: first.data[0]!.id });
    expect(second.data[0]!.id).toBe(all.data[1]!.id);
    expect(second.has_more).toBe(false);
    expect((await mock.admin.findings.list({ account_id: tenant.id, severity: 'error' })).data).toEqual([]);
    expect((await mock.admin.findings.list({ api_key_id: tenant.api_key.id, rule: 'non-retryable-retried' })).data).toHaveLength(2);
    await expect(mock.admin.findings.list({ rule: 'no-such-rule' })).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(mock.admin.findings.list({ limit: 101 })).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(mock.admin.findings.list({ starting_after: 'fnd_gone' })).rejects.toMatchObject({ status: 400 });
    expect(all.data[0]).toEqual({
      id: expect.stringMatching(/^fnd_/),
      object: 'finding',
      rule: 'non-retryable-retried',
      severity: 'warning',
      section: 'spec §7.2',
      message: expect.any(String),
      account_id: tenant.id,
      api_key_id: tenant.api_key.id,
      operation_id: 'getJob',
      request_ids: [expect.any(String), expect.any(String)],
      delivery_ids: [],
      created_at: expect.any(String),
    });
  });

  it("DELETE ?account_id= drops one account's; account reset and delete drop theirs", async () => {
    const { mock } = sandbox;
    const [a, b, c] = [await newTenant(mock), await newTenant(mock), await newTenant(mock)];
    for (const t of [a, b, c]) for (let i = 0; i < 2; i += 1) await call(mock, t, 'GET', '/jobs/job_none');
    expect(await mock.admin.findings.clear({ account_id: a.id })).toEqual({ deleted: 1 });
    expect((await a.findings()).data).toEqual([]);
    expect((await b.findings()).data).toHaveLength(1);
    await b.reset();
    expect((await b.findings()).data).toEqual([]);
    await c.delete();
    expect((await mock.admin.findings.list({ account_id: c.id })).data).toEqual([]);
  });

  it('expectNoFindings fails listing each finding with its message and request ids', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await expectNoFindings(tenant);
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    const error = (await expectNoFindings(tenant).catch((e: unknown) => e)) as FindingsError;
    expect(error).toBeInstanceOf(FindingsError);
    const [finding] = (await tenant.findings()).data;
    expect(error.message).toContain(`account ${tenant.id}`);
    expect(error.message).toContain(finding!.message);
    expect(error.message).toContain(finding!.request_ids.join(', '));
    await expectNoFindings(tenant, { ignore: ['non-retryable-retried'] });
  });
});

describe('contract §5.1: kept apart from the journal, dropped by POST /__admin/reset', () => {
  const quiet = useSandbox({ journalSize: 0 });

  it('with the journal off, findings are still raised; POST /__admin/reset drops them', async () => {
    const { mock } = quiet;
    const tenant = await newTenant(mock);
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect((await mock.admin.findings.list({})).data).toHaveLength(1);
    await mock.admin.reset();
    expect((await mock.admin.findings.list({})).data).toEqual([]);
  });
});

describe('findingsBudget 0 turns findings off', () => {
  const off = useSandbox({ findingsBudget: 0 });

  it('nothing is raised, the listing is empty, the journal entries list none', async () => {
    const { mock } = off;
    const tenant = await newTenant(mock);
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect((await mock.admin.findings.list({})).data).toEqual([]);
    expect((await mock.admin.requests.list({ account_id: tenant.id })).data.map((e) => e.finding_ids)).toEqual([[], []]);
  });
});
