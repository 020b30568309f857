/**
 * Contract §5 "Elapsed time", "The same request" and the rules of §5.1, on the rules alone: each
 * request is what a finished /v1 request reports (src/findings/observation.ts), with both clocks set
 * by the test, so nothing here waits or depends on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { Findings } from '../../src/findings/findings.js';
import { elapsedMs } from '../../src/findings/observation.js';
import { obs } from './observations.js';

function rulesOf(findings: Findings): string[] {
  return findings
    .list({ limit: 100 })
    .data.map((f) => f.rule)
    .reverse();
}

/** Three 500s of the same POST, each answered 5 ms after it was sent, sends `gap` ms apart on `clock`. */
function failingRun(findings: Findings, gap: number, clock: 'real' | 'virtual', extra: Parameters<typeof obs>[0] = {}) {
  const at = (i: number) => (clock === 'real' ? { real: i * gap, virtual: 0 } : { real: i, virtual: i * gap });
  for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ ...at(i), status: 500, ...extra }));
  return findings.requestFinished(obs({ ...at(3), ...extra }));
}

describe('contract §5 "Elapsed time": the larger of real and the account\'s virtual time', () => {
  it('is the larger difference of the two clocks', () => {
    expect(elapsedMs({ real: 0, virtual: 0 }, { real: 10, virtual: 5000 })).toBe(5000);
    expect(elapsedMs({ real: 0, virtual: 0 }, { real: 3000, virtual: 0 })).toBe(3000);
  });

  it('a client that sleeps for real and one that advances the clock are judged alike', () => {
    const sleeper = new Findings();
    const advancer = new Findings();
    expect(failingRun(sleeper, 400, 'real')).toEqual([]);
    expect(failingRun(advancer, 400, 'virtual')).toEqual([]);
    const quickReal = new Findings();
    const quickVirtual = new Findings();
    expect(failingRun(quickReal, 100, 'real')).toHaveLength(1);
    expect(failingRun(quickVirtual, 100, 'virtual')).toHaveLength(1);
    expect(rulesOf(quickReal)).toEqual(rulesOf(quickVirtual));
  });

  it('a tight loop on a frozen clock has elapsed ≈ 0: the real time alone decides', () => {
    const findings = new Findings();
    // Virtual time stands still (frozen), real time moves 1 ms a send.
    for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ real: i, virtual: 0, took: 0, status: 503 }));
    findings.requestFinished(obs({ real: 3, virtual: 0 }));
    expect(rulesOf(findings)).toEqual(['retry-without-backoff']);
  });
});

describe('contract §5 "The same request"', () => {
  it('same credential, method, path, query and JSON-equal body: key order and query order do not count', () => {
    const findings = new Findings();
    findings.requestFinished(
      obs({ method: 'POST', path: '/v1/auth/keys', querystring: 'a=1&b=2', body: { name: 'x', access: 'full' }, status: 422 }),
    );
    findings.requestFinished(
      obs({ method: 'POST', path: '/v1/auth/keys', querystring: 'b=2&a=1', body: { access: 'full', name: 'x' }, status: 422 }),
    );
    expect(rulesOf(findings)).toEqual(['non-retryable-retried']);
  });

  it('headers do not count: another Idempotency-Key is still the same request', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ method: 'POST', path: '/v1/x', body: { a: 1 }, status: 400, idempotencyKey: 'k1' }));
    findings.requestFinished(obs({ method: 'POST', path: '/v1/x', body: { a: 1 }, status: 400, idempotencyKey: 'k2' }));
    expect(rulesOf(findings)).toEqual(['non-retryable-retried']);
  });

  it('another body, query, path, method or credential is another request', () => {
    const findings = new Findings();
    const first = { method: 'POST', path: '/v1/x', querystring: 'q=1', body: { a: 1 }, status: 404 } as const;
    findings.requestFinished(obs(first));
    findings.requestFinished(obs({ ...first, body: { a: 2 } }));
    findings.requestFinished(obs({ ...first, querystring: 'q=2', body: { a: 3 } }));
    findings.requestFinished(obs({ ...first, path: '/v1/y', body: { a: 4 } }));
    findings.requestFinished(obs({ ...first, method: 'PATCH', body: { a: 5 } }));
    findings.requestFinished(obs({ ...first, apiKeyId: 'key_b' }));
    expect(rulesOf(findings)).toEqual([]);
  });

  it("without a known key the credential is the caller's IP address", () => {
    const findings = new Findings();
    const anonymous = { accountId: null, apiKeyId: null, status: 401 } as const;
    findings.requestFinished(obs({ ...anonymous, callerIp: '10.0.0.1' }));
    findings.requestFinished(obs({ ...anonymous, callerIp: '10.0.0.2' }));
    expect(rulesOf(findings)).toEqual([]);
    findings.requestFinished(obs({ ...anonymous, callerIp: '10.0.0.1' }));
    const [finding] = findings.list({ limit: 1 }).data;
    expect(finding).toMatchObject({ rule: 'non-retryable-retried', account_id: null, api_key_id: null });
  });

  it('a failure is a 5xx, a transport fault, or no answer (the client closed first); a 4xx or 429 is not', () => {
    for (const failure of [{ status: 500 }, { status: 503 }, { fault: 'connection-reset', status: null }, { closedEarly: true }] as const) {
      const findings = new Findings();
      expect(failingRun(findings, 10, 'real', { method: 'POST', path: '/v1/x', ...failure }).length).toBeGreaterThan(0);
    }
    const findings = new Findings();
    for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ real: i, status: 429 }));
    findings.requestFinished(obs({ real: 3 }));
    expect(rulesOf(findings)).toEqual([]);
  });

  it('a run of retries ends with a send that does not fail: the next failures start a new run', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ real: 0, status: 500 }));
    findings.requestFinished(obs({ real: 10, status: 500 }));
    findings.requestFinished(obs({ real: 20, status: 200 }));
    findings.requestFinished(obs({ real: 30, status: 500 }));
    findings.requestFinished(obs({ real: 40 }));
    expect(rulesOf(findings)).toEqual([]);
  });
});

describe('contract §5.1 rules', () => {
  it('retry-after-ignored: a send less than Retry-After after the 429, once per 429; 100 ms short still honours it', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ real: 0, took: 0, status: 429, retryAfterSeconds: 2, rateLimited: 'scenario' }));
    expect(findings.requestFinished(obs({ real: 1900 }))).toEqual([]);
    findings.requestFinished(obs({ real: 5000, took: 0, status: 429, retryAfterSeconds: 2, rateLimited: 'scenario' }));
    const ids = findings.requestFinished(obs({ real: 6000 }));
    expect(ids).toHaveLength(1);
    expect(findings.requestFinished(obs({ real: 6001 }))).toEqual([]);
    const [finding] = findings.list({ limit: 1 }).data;
    expect(finding).toMatchObject({ rule: 'retry-after-ignored', severity: 'error', section: 'spec §8' });
    expect(finding!.message).toContain('Retry-After: 2');
    expect(finding!.message).toContain('1 s later');
    expect(finding!.request_ids).toHaveLength(2);
  });

  it('retry-after-ignored: another request of the same credential counts too; a request sent before the 429 came does not', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ real: 100, took: 0, status: 429, retryAfterSeconds: 5 }));
    expect(findings.requestFinished(obs({ real: 50, path: '/v1/other' }))).toEqual([]);
    expect(findings.requestFinished(obs({ real: 200, path: '/v1/other' }))).toHaveLength(1);
  });

  it('retry-without-backoff: exponential backoff from 200 ms never raises it; one finding per run', () => {
    const findings = new Findings();
    // 200, 400, 800 ms waits: the fourth send comes 1.4 s after the first failure.
    const sends = [0, 205, 610, 1415];
    sends.forEach((real, i) => findings.requestFinished(obs({ real, status: i < 3 ? 500 : 200 })));
    expect(rulesOf(findings)).toEqual([]);
    const loop = new Findings();
    for (let i = 0; i < 8; i += 1) loop.requestFinished(obs({ real: i * 10, status: 500 }));
    expect(rulesOf(loop)).toEqual(['retry-without-backoff']);
    expect(loop.list({ limit: 1 }).data[0]!.request_ids).toHaveLength(4);
  });

  it('write-retried-without-idempotency-key: a POST resent without a key after a failure; the message says when it took effect', () => {
    const plain = new Findings();
    plain.requestFinished(obs({ method: 'POST', path: '/v1/x', body: { a: 1 }, status: 500 }));
    plain.requestFinished(obs({ method: 'POST', path: '/v1/x', body: { a: 1 }, real: 2000, status: 201 }));
    const [first] = plain.list({ limit: 1 }).data;
    expect(first).toMatchObject({ rule: 'write-retried-without-idempotency-key', severity: 'error', section: 'spec §7.3, §4' });
    expect(first!.message).not.toContain('twice');
    const twice = new Findings();
    twice.requestFinished(obs({ method: 'POST', path: '/v1/x', status: 201, fault: 'connection-reset', tookEffect: true }));
    twice.requestFinished(obs({ method: 'POST', path: '/v1/x', real: 2000, status: 201 }));
    expect(twice.list({ limit: 1 }).data[0]!.message).toContain('twice');
    const keyed = new Findings();
    keyed.requestFinished(obs({ method: 'POST', path: '/v1/x', status: 500, idempotencyKey: 'k' }));
    keyed.requestFinished(obs({ method: 'POST', path: '/v1/x', real: 2000, status: 201, idempotencyKey: 'k' }));
    expect(rulesOf(keyed)).toEqual([]);
  });

  it('idempotency-key-reused: the 400 idempotency_key_reused answer raises it', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ method: 'POST', status: 400, errorCode: 'idempotency_key_reused', idempotencyKey: 'k' }));
    expect(findings.list({ limit: 1 }).data[0]).toMatchObject({ rule: 'idempotency-key-reused', severity: 'error', section: 'spec §7.3' });
  });

  it('non-retryable-retried: after 400, 401, 403, 404, 422, one finding per repeated answer; 409 and 429 do not count', () => {
    for (const status of [400, 401, 403, 404, 422]) {
      const findings = new Findings();
      for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ status }));
      expect(rulesOf(findings)).toEqual(['non-retryable-retried', 'non-retryable-retried']);
    }
    for (const status of [409, 429]) {
      const findings = new Findings();
      for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ status }));
      expect(rulesOf(findings)).toEqual([]);
    }
  });

  it('job-polled-too-often: the 10th read in a row of an unfinished job, each < 1 s apart; once per job', () => {
    const findings = new Findings();
    const read = (real: number, status = 'processing', id = 'job_1') =>
      findings.requestFinished(obs({ real, operationId: 'getJob', path: `/v1/jobs/${id}`, job: { id, status } }));
    for (let i = 0; i < 9; i += 1) expect(read(i * 900)).toEqual([]);
    expect(read(9 * 900)).toHaveLength(1);
    for (let i = 10; i < 25; i += 1) expect(read(i * 900)).toEqual([]);
    // A poller waiting a second between reads never raises it.
    for (let i = 0; i < 30; i += 1) expect(read(100_000 + i * 1000, 'queued', 'job_2')).toEqual([]);
    expect(findings.list({ limit: 1 }).data[0]).toMatchObject({ rule: 'job-polled-too-often', section: 'spec §1, §6' });
    expect(findings.list({ limit: 1 }).data[0]!.message).toContain('webhook');
  });

  it("rate-limit-exhausted: a 429 from the real quota, once per credential and window; a scenario's 429 does not", () => {
    const findings = new Findings();
    findings.requestFinished(obs({ status: 429, rateLimited: 'scenario', retryAfterSeconds: 0 }));
    findings.requestFinished(obs({ status: 429, rateLimited: 'quota', rateLimitWindow: 60_000 }));
    findings.requestFinished(obs({ status: 429, rateLimited: 'quota', rateLimitWindow: 60_000 }));
    findings.requestFinished(obs({ status: 429, rateLimited: 'quota', rateLimitWindow: 120_000 }));
    findings.requestFinished(obs({ status: 429, rateLimited: 'quota', rateLimitWindow: 120_000, apiKeyId: 'key_b' }));
    expect(rulesOf(findings)).toEqual(['rate-limit-exhausted', 'rate-limit-exhausted', 'rate-limit-exhausted']);
  });

  it('deprecated-operation-called: once per account and operation, naming the Sunset', () => {
    const findings = new Findings();
    const deprecation = { sunset: '2027-01-01T00:00:00.000Z' };
    findings.requestFinished(obs({ deprecation }));
    findings.requestFinished(obs({ deprecation, apiKeyId: 'key_other' }));
    findings.requestFinished(obs({ deprecation, accountId: 'acct_b', apiKeyId: 'key_b' }));
    expect(rulesOf(findings)).toEqual(['deprecated-operation-called', 'deprecated-operation-called']);
    expect(findings.list({ limit: 1 }).data[0]).toMatchObject({ severity: 'info', section: 'spec §9' });
    expect(findings.list({ limit: 1 }).data[0]!.message).toContain('2027-01-01T00:00:00.000Z');
  });

  it('webhook-signature-not-verified and webhook-delivery-failed: on the delivery that ends', () => {
    const findings = new Findings();
    const delivery = { accountId: 'acct_a', endpointId: 'we_1', eventType: 'job.completed', attempts: 1, at: 0 };
    findings.deliveryEnded({ ...delivery, deliveryId: 'whd_1', status: 'succeeded', wrongSecret: true, lastStatusCode: 204 });
    findings.deliveryEnded({ ...delivery, deliveryId: 'whd_2', status: 'succeeded', wrongSecret: false, lastStatusCode: 204 });
    findings.deliveryEnded({ ...delivery, deliveryId: 'whd_3', status: 'failed', wrongSecret: false, lastStatusCode: 500, attempts: 8 });
    const [failed, unverified] = findings.list({ limit: 10 }).data;
    expect(unverified).toMatchObject({
      rule: 'webhook-signature-not-verified',
      severity: 'error',
      delivery_ids: ['whd_1'],
      request_ids: [],
    });
    expect(failed).toMatchObject({
      rule: 'webhook-delivery-failed',
      severity: 'warning',
      section: 'contract §4.3',
      delivery_ids: ['whd_3'],
    });
  });
});

describe('contract §5.1: the store', () => {
  it('past 1,000 per account the oldest go first; other accounts keep theirs', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ accountId: 'acct_b', apiKeyId: 'key_b', status: 400, errorCode: 'idempotency_key_reused' }));
    for (let i = 0; i < 1005; i += 1) findings.requestFinished(obs({ status: 400, errorCode: 'idempotency_key_reused', body: { i } }));
    expect(findings.store.size('acct_a').count).toBe(1000);
    expect(findings.store.size('acct_b').count).toBe(1);
    const oldest = findings.list({ account_id: 'acct_a', limit: 100, starting_after: undefined });
    expect(oldest.data[0]!.id).toMatch(/00001005$/);
  });

  it('a byte budget per account: past it the oldest go first', () => {
    const findings = new Findings({ bytesPerAccount: 4096 });
    for (let i = 0; i < 50; i += 1) findings.requestFinished(obs({ status: 400, errorCode: 'idempotency_key_reused' }));
    const { count, bytes } = findings.store.size('acct_a');
    expect(bytes).toBeLessThanOrEqual(4096);
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThan(50);
  });

  it('a client that breaks no rule leaves nothing: no state, no finding', () => {
    const findings = new Findings();
    for (let i = 0; i < 100; i += 1) findings.requestFinished(obs({ real: i * 10 }));
    findings.requestFinished(obs({ real: 2000, status: 500 }));
    findings.requestFinished(obs({ real: 3000 }));
    expect(findings.trackedCredentials).toBe(0);
    expect(findings.store.size()).toEqual({ count: 0, bytes: 0 });
  });

  it("forget drops the account's findings and what the rules kept about its keys", () => {
    const findings = new Findings();
    findings.requestFinished(obs({ status: 404 }));
    findings.requestFinished(obs({ status: 404 }));
    expect(findings.store.size('acct_a').count).toBe(1);
    findings.forget('acct_a');
    expect(findings.store.size('acct_a').count).toBe(0);
    expect(findings.trackedCredentials).toBe(0);
  });
});
