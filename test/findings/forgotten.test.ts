/**
 * Contract §5.1: account reset and delete drop the account's findings, also those a request still
 * running (or whose body was still arriving) would raise once it finished; and a finding's id names
 * one finding for the world's life, whatever DELETE, reset or delete dropped before it.
 */
import { describe, expect, it } from 'vitest';
import { findingsModule, type FindingsExchange } from '../../src/findings/world-module.js';
import { call, newTenant, useSandbox } from './support.js';

function notFound(requestId: string, accountForgotten: boolean): FindingsExchange {
  return {
    requestId,
    accountId: 'acct_1',
    apiKeyId: 'key_1',
    callerIp: '127.0.0.1',
    method: 'GET',
    path: '/v1/jobs/job_missing',
    query: {},
    operationId: 'getJob',
    body: null,
    idempotencyKeySent: null,
    status: 404,
    errorCode: 'resource_missing',
    headers: { retryAfter: null, deprecation: null, sunset: null },
    fault: null,
    closedEarly: false,
    rateLimitedBy: null,
    rateLimitResetAt: null,
    tookEffect: false,
    job: null,
    lateBody: null,
    accountForgotten,
    realStart: 0,
    realEnd: 1,
    virtualStart: 0,
    virtualEnd: 1,
  };
}

function instance() {
  return findingsModule.create({
    options: { findingsBudget: 1 << 20 },
    journal: { noteFindings: () => undefined },
    timeOf: () => ({ clock: { now: () => 0 } }),
  });
}

describe('findings of a forgotten account (contract §5.1)', () => {
  it('a request whose account was reset or deleted while it ran raises nothing and leaves no memory', () => {
    const findings = instance();
    findings.requestFinished!(notFound('req_1', false));
    findings.requestFinished!(notFound('req_2', true));
    expect(findings.findings!.list({ limit: 100 }).data).toEqual([]);
    // The forgotten request was not remembered either: the next one is a first sight, not a repeat.
    findings.requestFinished!(notFound('req_3', false));
    expect(findings.findings!.list({ limit: 100 }).data.map((f) => f.request_ids)).toEqual([['req_1', 'req_3']]);
  });

  it('a finding id is never given again after DELETE, reset or delete dropped the one that had it', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    const raise = async () => {
      await call(mock, tenant, 'GET', '/jobs/job_none');
      await call(mock, tenant, 'GET', '/jobs/job_none');
      return (await tenant.findings()).data.map((finding) => finding.id);
    };
    const first = await raise();
    await mock.admin.findings.clear({ account_id: tenant.id });
    const second = await raise();
    await tenant.reset();
    const third = await raise();
    const all = [...first, ...second, ...third];
    expect(first).toHaveLength(1);
    expect(second.length).toBeGreaterThan(0);
    expect(third.length).toBeGreaterThan(0);
    expect(new Set(all).size).toBe(all.length);
  });
});

const sandbox = useSandbox();
