/**
 * Contract §5.1 against real, unmodified retry stacks: each drives the sandbox's scenarios and faults
 * with its default (or documented) configuration, and the findings it earns are checked. Goal: no
 * finding for every well-behaved configuration, and every seeded misbehaviour found.
 *
 * The waits here are the clients' own (Retry-After: 1 s, their backoff); nothing asserts a duration.
 */
import got from 'got';
import ky from 'ky';
import pRetry from 'p-retry';
import { Agent, RetryAgent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { expectNoFindings } from '../../src/findings/expect-no-findings.js';
import { startReceiver } from '../support/receiver.js';
import { newTenant, rules, useSandbox } from './support.js';

const sandbox = useSandbox();
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('well-behaved retry stacks earn no finding (contract §5.1)', () => {
  it('got, default retry: honours Retry-After on a 429 storm and backs off on 500s', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 2, params: { retry_after: 1 } });
    const res = await got(`${mock.apiUrl}/status`, { headers: auth(tenant.token) });
    expect(res.statusCode).toBe(200);
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 2 });
    expect((await got(`${mock.apiUrl}/status`, { headers: auth(tenant.token) })).statusCode).toBe(200);
    await expectNoFindings(tenant);
  });

  it('ky, default retry: honours Retry-After on a 429 storm and backs off on 500s', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 2, params: { retry_after: 1 } });
    expect((await ky.get(`${mock.apiUrl}/status`, { headers: auth(tenant.token) })).status).toBe(200);
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 2 });
    expect((await ky.get(`${mock.apiUrl}/status`, { headers: auth(tenant.token) })).status).toBe(200);
    await expectNoFindings(tenant);
  });

  it("undici's RetryAgent, defaults: honours Retry-After and backs off through four 500s", async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    const dispatcher = new RetryAgent(new Agent());
    try {
      await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 1, params: { retry_after: 1 } });
      const limited = await request(`${mock.apiUrl}/status`, { headers: auth(tenant.token), dispatcher });
      await limited.body.dump();
      expect(limited.statusCode).toBe(200);
      await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 4 });
      const failed = await request(`${mock.apiUrl}/status`, { headers: auth(tenant.token), dispatcher });
      await failed.body.dump();
      expect(failed.statusCode).toBe(200);
    } finally {
      await dispatcher.close();
    }
    await expectNoFindings(tenant);
  });

  it('p-retry with its default backoff (1 s, doubling) through three 500s', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 3 });
    const status = await pRetry(
      async () => {
        const res = await fetch(`${mock.apiUrl}/status`, { headers: auth(tenant.token) });
        await res.arrayBuffer();
        if (res.status >= 500) throw new Error(`status ${res.status}`);
        return res.status;
      },
      { retries: 5 },
    );
    expect(status).toBe(200);
    await expectNoFindings(tenant);
  });

  it('a job waiter that waits for the job.completed webhook, then reads the job once', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { clock: 'frozen' });
    const receiver = await startReceiver(() => 204);
    try {
      await mock.admin.webhooks.createEndpoint({ account_id: tenant.id, url: receiver.url, events: ['job.completed'] });
      const created = await ky
        .post(`${mock.apiUrl}/web/crawl`, { headers: auth(tenant.token), json: { url: 'https://example.com/' } })
        .json<{ id: string }>();
      await tenant.clock.advance(3600);
      const [delivery] = await receiver.received(1);
      expect(delivery!.json.data.object).toMatchObject({ id: created.id, status: 'completed' });
      const job = await ky.get(`${mock.apiUrl}/jobs/${created.id}`, { headers: auth(tenant.token) }).json<{ status: string }>();
      expect(job.status).toBe('completed');
    } finally {
      await receiver.close();
    }
    await expectNoFindings(tenant);
  });
});

describe('seeded misbehaviours are found (contract §5.1)', () => {
  it('p-retry without backoff (minTimeout 0) through four 500s: retry-without-backoff', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 4 });
    await pRetry(
      async () => {
        const res = await fetch(`${mock.apiUrl}/status`, { headers: auth(tenant.token) });
        await res.arrayBuffer();
        if (res.status >= 500) throw new Error(`status ${res.status}`);
      },
      { retries: 5, minTimeout: 0, maxTimeout: 0 },
    );
    expect(await rules(tenant)).toEqual(['retry-without-backoff']);
  });

  it('a naive loop that retries at once: retry-without-backoff, one finding for the run', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { clock: 'frozen' });
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 6 });
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 200; attempt += 1) {
      const res = await fetch(`${mock.apiUrl}/status`, { headers: auth(tenant.token) });
      await res.arrayBuffer();
      status = res.status;
    }
    expect(status).toBe(200);
    expect(await rules(tenant)).toEqual(['retry-without-backoff']);
  });

  it('a POST retried without a key after a `when: "after"` fault: the message says the write happened twice', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'empty-response', account_id: tenant.id, times: 1, params: { when: 'after' } });
    const create = () =>
      fetch(`${mock.apiUrl}/web/crawl`, {
        method: 'POST',
        headers: { ...auth(tenant.token), 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/' }),
      });
    let res: Response | undefined;
    for (let attempt = 0; attempt < 3 && !res; attempt += 1) res = await create().catch(() => undefined);
    expect(res?.status).toBe(201);
    const { data } = await tenant.findings();
    expect(data.map((f) => f.rule)).toEqual(['write-retried-without-idempotency-key']);
    expect(data[0]!.message).toMatch(/had taken effect .* twice/);
  });

  it('the same POST retried by p-retry with an Idempotency-Key earns nothing', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await mock.admin.scenarios.activate({ name: 'connection-reset', account_id: tenant.id, times: 1, params: { when: 'after' } });
    const key = 'crawl-example-1';
    const res = await pRetry(
      () =>
        fetch(`${mock.apiUrl}/web/crawl`, {
          method: 'POST',
          headers: { ...auth(tenant.token), 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify({ url: 'https://example.com/' }),
        }),
      { retries: 3, minTimeout: 200 },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    await expectNoFindings(tenant);
  });

  it('a crawl poller in a tight loop: job-polled-too-often, pointing at webhooks', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { clock: 'frozen' });
    const created = await ky
      .post(`${mock.apiUrl}/web/crawl`, { headers: auth(tenant.token), json: { url: 'https://example.com/' } })
      .json<{ id: string }>();
    for (let read = 0; read < 12; read += 1) {
      const job = await ky.get(`${mock.apiUrl}/jobs/${created.id}`, { headers: auth(tenant.token) }).json<{ status: string }>();
      expect(job.status).not.toBe('completed');
    }
    const { data } = await tenant.findings();
    expect(data.map((f) => f.rule)).toEqual(['job-polled-too-often']);
    expect(data[0]!.message).toContain('webhooks');
    expect(data[0]!.request_ids).toHaveLength(10);
  });
});
