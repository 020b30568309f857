/**
 * Contract §5.1, docs/findings.md "Silencing a rule": a rule turned off for an account raises
 * nothing for it and remembers nothing of its requests; the setting is given at the account's
 * creation or changed later, survives the account's reset, goes with its deletion and with
 * `POST /__admin/reset`, and is not carried by a snapshot.
 */
import { describe, expect, it } from 'vitest';
import { Findings } from '../../src/findings/findings.js';
import { RuleSwitches } from '../../src/findings/rule-switches.js';
import { RULE_NAMES } from '../../src/findings/finding.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { startMockServer } from '../../src/server.js';
import { obs } from './observations.js';
import { call, newTenant, rules, useSandbox } from './support.js';

/** A 429 asking 30 s, then the next request at once: a `retry-after-ignored` when the rule is on. */
function ignoreRetryAfter(findings: Findings, accountId = 'acct_a'): readonly string[] {
  findings.requestFinished(obs({ accountId, status: 429, retryAfterSeconds: 30 }));
  return findings.requestFinished(obs({ accountId, real: 10 }));
}

describe('contract §5.1: a rule off for an account, on the rules alone', () => {
  it('raises nothing for that account, while other accounts and other rules still raise theirs', () => {
    const findings = new Findings();
    findings.setRules('acct_a', { 'retry-after-ignored': 'off' });
    expect(ignoreRetryAfter(findings, 'acct_a')).toEqual([]);
    expect(ignoreRetryAfter(findings, 'acct_b')).toHaveLength(1);
    // Another rule of the same account is still on.
    findings.requestFinished(obs({ status: 404 }));
    expect(findings.requestFinished(obs({ status: 404 }))).toHaveLength(1);
  });

  it('its state costs nothing: a client breaking only off rules leaves no state behind', () => {
    const findings = new Findings();
    findings.setRules('acct_a', {
      'retry-after-ignored': 'off',
      'non-retryable-retried': 'off',
      'retry-without-backoff': 'off',
      'write-retried-without-idempotency-key': 'off',
      'job-polled-too-often': 'off',
      'rate-limit-exhausted': 'off',
    });
    findings.requestFinished(obs({ status: 429, retryAfterSeconds: 30 }));
    findings.requestFinished(obs({ status: 404 }));
    findings.requestFinished(obs({ method: 'POST', status: 500 }));
    findings.requestFinished(obs({ status: 429, rateLimited: 'quota', rateLimitWindow: 60_000 }));
    findings.requestFinished(obs({ operationId: 'getJob', job: { id: 'job_1', status: 'processing' } }));
    expect(findings.trackedCredentials).toBe(0);
    expect(findings.all()).toEqual([]);
  });

  it('one of the two rules that follow runs of retries off: the other still judges the run', () => {
    const findings = new Findings();
    findings.setRules('acct_a', { 'retry-without-backoff': 'off' });
    const post = { method: 'POST', path: '/v1/auth/keys', body: { name: 'a' } } as const;
    for (let i = 0; i < 3; i += 1) findings.requestFinished(obs({ ...post, real: i, status: 500 }));
    findings.requestFinished(obs({ ...post, real: 3, status: 201 }));
    expect(findings.all().map((f) => f.rule)).toEqual(['write-retried-without-idempotency-key']);
    // A failing GET is judged by no rule that is on: nothing is kept for it.
    findings.requestFinished(obs({ real: 10, status: 500 }));
    expect(findings.trackedCredentials).toBe(0);
  });

  it('turning a rule off drops what only it remembered; turning it on again judges what comes after', () => {
    const findings = new Findings();
    findings.requestFinished(obs({ status: 429, retryAfterSeconds: 30 }));
    expect(findings.trackedCredentials).toBe(1);
    findings.setRules('acct_a', { 'retry-after-ignored': 'off' });
    expect(findings.trackedCredentials).toBe(0);
    expect(findings.requestFinished(obs({ real: 10 }))).toEqual([]);
    findings.setRules('acct_a', { 'retry-after-ignored': 'on' });
    expect(ignoreRetryAfter(findings)).toHaveLength(1);
  });

  it('deliveries: the two webhook rules can be turned off too', () => {
    const findings = new Findings();
    findings.setRules('acct_a', { 'webhook-delivery-failed': 'off' });
    const delivery = {
      deliveryId: 'wd_1',
      accountId: 'acct_a',
      endpointId: 'we_1',
      eventType: 'job.completed',
      status: 'failed' as const,
      wrongSecret: false,
      lastStatusCode: 500,
      attempts: 8,
      at: 0,
    };
    expect(findings.deliveryEnded(delivery)).toEqual([]);
    expect(findings.deliveryEnded({ ...delivery, accountId: 'acct_b' })).toHaveLength(1);
  });

  it("the sandbox's defaults apply to every account and to requests without a known key; an account's own setting wins", () => {
    const switches = new RuleSwitches({ 'retry-after-ignored': 'off' });
    expect([...switches.offFor(null)]).toEqual(['retry-after-ignored']);
    expect(switches.view('acct_a')['retry-after-ignored']).toBe('off');
    switches.set('acct_a', { 'retry-after-ignored': 'on' });
    expect(switches.view('acct_a')['retry-after-ignored']).toBe('on');
    expect(switches.view('acct_b')['retry-after-ignored']).toBe('off');
    switches.forget('acct_a');
    expect(switches.view('acct_a')['retry-after-ignored']).toBe('off');
  });
});

describe('contract §5.1: turning rules off through the admin API', () => {
  const sandbox = useSandbox();
  const allOn = Object.fromEntries(RULE_NAMES.map((rule) => [rule, 'on']));

  it('POST /__admin/accounts takes "findings": {"rules"}; GET …/findings/rules answers every rule', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { findings: { rules: { 'non-retryable-retried': 'off' } } });
    expect(await tenant.findings.rules()).toEqual({
      object: 'finding_rules',
      account_id: tenant.id,
      rules: { ...allOn, 'non-retryable-retried': 'off' },
    });
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect(await rules(tenant)).toEqual([]);
    // Still on: the 429's Retry-After is judged.
    await call(mock, tenant, 'GET', '/status', { headers: { Prefer: 'scenario=rate-limited; retry_after=30' } });
    await call(mock, tenant, 'GET', '/status');
    expect(await rules(tenant)).toEqual(['retry-after-ignored']);
  });

  it('POST …/findings/rules changes the rules named and keeps the others; findings raised before stay', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    const answer = await tenant.findings.rules({ 'non-retryable-retried': 'off', 'rate-limit-exhausted': 'off' });
    expect(answer.rules).toEqual({ ...allOn, 'non-retryable-retried': 'off', 'rate-limit-exhausted': 'off' });
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect(await rules(tenant)).toEqual(['non-retryable-retried']);
    // The other one keeps its setting when only one is named; the admin client reaches the same route.
    const again = await mock.admin.accounts.findingRules(tenant.id).set({ 'non-retryable-retried': 'on' });
    expect(again.rules).toEqual({ ...allOn, 'rate-limit-exhausted': 'off' });
    expect(await mock.admin.accounts.findingRules(tenant.id).get()).toEqual(again);
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect(await rules(tenant)).toEqual(['non-retryable-retried', 'non-retryable-retried']);
  });

  it('an unknown rule is 422 naming the member, and makes no account; a bad setting is 422; an unknown account 404', async () => {
    const { mock } = sandbox;
    const before = (await mock.admin.accounts.list({ limit: 1000 })).data.length;
    const created = await fetch(`${mock.url}/__admin/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ findings: { rules: { 'retry-after-ignored': 'off', 'no-such-rule': 'off' } } }),
    });
    expect(created.status).toBe(422);
    expect(((await created.json()) as { error: { param: string } }).error.param).toBe('findings.rules.no-such-rule');
    expect((await mock.admin.accounts.list({ limit: 1000 })).data).toHaveLength(before);

    const tenant = await newTenant(mock);
    const set = (body: unknown, id = tenant.id) =>
      fetch(`${mock.url}/__admin/accounts/${id}/findings/rules`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    // Written as text: an object literal's `__proto__` would set its prototype, not a member.
    const unknown = await set('{"rules": {"retry-after-ignored": "off", "__proto__": "off"}}');
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: { param: string; message: string } }).error).toMatchObject({
      param: 'rules.__proto__',
    });
    // Refused whole: the known rule named beside it did not change.
    expect((await tenant.findings.rules()).rules['retry-after-ignored']).toBe('on');
    const bad = await set({ rules: { 'retry-after-ignored': 'sometimes' } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('rules.retry-after-ignored');
    expect((await set({ rules: {} }, 'acct_none')).status).toBe(404);
    expect((await fetch(`${mock.url}/__admin/accounts/acct_none/findings/rules`)).status).toBe(404);
  });

  it('account reset keeps the settings; deletion drops them with the account', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { findings: { rules: { 'non-retryable-retried': 'off' } } });
    await tenant.findings.rules({ 'retry-after-ignored': 'off' });
    await tenant.reset();
    expect((await tenant.findings.rules()).rules).toMatchObject({ 'non-retryable-retried': 'off', 'retry-after-ignored': 'off' });
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect(await rules(tenant)).toEqual([]);
    await tenant.delete();
    await expect(tenant.findings.rules()).rejects.toMatchObject({ status: 404 });
  });

  it('a snapshot does not carry them; "findings" beside "snapshot" sets them on the loaded account', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock, { findings: { rules: { 'non-retryable-retried': 'off' } } });
    const snapshot = await tenant.snapshot();
    expect(JSON.stringify(snapshot)).not.toContain('non-retryable-retried');
    await tenant.delete();
    const plain = await mock.admin.accounts.create({ snapshot });
    expect((await plain.findings.rules()).rules).toEqual(allOn);
    await plain.delete();
    const silenced = await mock.admin.accounts.create({ snapshot, findings: { rules: { 'non-retryable-retried': 'off' } } });
    expect((await silenced.findings.rules()).rules['non-retryable-retried']).toBe('off');
    await silenced.delete();
  });

  it('POST /__admin/reset drops every account’s settings', async () => {
    const { mock } = sandbox;
    const [fixtureAccount] = (await mock.admin.accounts.list({ limit: 1 })).data;
    await mock.admin.accounts.findingRules(fixtureAccount!.id).set({ 'deprecated-operation-called': 'off' });
    await mock.admin.reset();
    expect((await mock.admin.accounts.findingRules(fixtureAccount!.id).get()).rules).toEqual(allOn);
  });
});

describe("contract §5.1: the sandbox's defaults (--findings-rules, MOCK_FINDINGS_RULES, option findingsRules)", () => {
  const sandbox = useSandbox({ findingsRules: 'non-retryable-retried=off, rate-limit-exhausted=off' });

  it('turn rules off for every account; an account turns one back on for itself', async () => {
    const { mock } = sandbox;
    const tenant = await newTenant(mock);
    expect((await tenant.findings.rules()).rules).toMatchObject({ 'non-retryable-retried': 'off', 'rate-limit-exhausted': 'off' });
    await call(mock, tenant, 'GET', '/jobs/job_none');
    await call(mock, tenant, 'GET', '/jobs/job_none');
    expect(await rules(tenant)).toEqual([]);
    const own = await newTenant(mock, { findings: { rules: { 'non-retryable-retried': 'on' } } });
    await call(mock, own, 'GET', '/jobs/job_none');
    await call(mock, own, 'GET', '/jobs/job_none');
    expect(await rules(own)).toEqual(['non-retryable-retried']);
  });

  it('a name that is no rule, or a setting that is neither on nor off, is refused at start naming the setting', async () => {
    await expect(startMockServer({ findingsRules: 'retry-after-ignored=off,no-such-rule=off' })).rejects.toThrow(
      /^findings-rules: no rule "no-such-rule"/,
    );
    expect(() => parseCliSettings(['--findings-rules', 'retry-after-ignored=maybe'], {})).toThrow(ConfigError);
    expect(() => parseCliSettings([], { MOCK_FINDINGS_RULES: 'retry-after-ignored' })).toThrow(/MOCK_FINDINGS_RULES|findings-rules/);
    expect(parseCliSettings(['--findings-rules', 'retry-after-ignored=off'], {}).options.findingsRules).toBe('retry-after-ignored=off');
  });
});
