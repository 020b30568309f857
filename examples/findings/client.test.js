/**
 * "My client is well-behaved" as one line of a test: the sandbox sees every request of this file's
 * tenant and reports where the client broke the service's rules (docs/findings.md).
 */
import { describe, expect, inject, it } from 'vitest';
import { connectToMock, expectNoFindings, useTenant } from 'creator-commerce-mock/vitest';
import { createClient } from './api-client.js';

const mock = connectToMock(inject('creatorCommerceMock'));
// A frozen clock of its own, reset before each test: the polite client's waits advance it.
const tenant = useTenant(mock, { plan: 'paid', clock: 'frozen', resetBeforeEach: true });

const politeClient = () =>
  createClient({ baseUrl: mock.apiUrl, apiKey: tenant.token, policy: 'polite', sleep: (ms) => tenant.clock.advance(ms / 1000) });
const hastyClient = () => createClient({ baseUrl: mock.apiUrl, apiKey: tenant.token, policy: 'hasty' });

/** The account's Default key and the keys its tests made. */
const keyNames = async () => (await tenant.state()).state.api_keys.map((key) => key.name);

describe('a client that follows the spec', () => {
  it('meets 429s, 500s and a lost answer to a write, and earns no finding', async () => {
    const client = politeClient();
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 2, params: { retry_after: 5 } });
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, operation_id: 'getStatus', times: 2 });
    await client.status();
    // The write happens, then its answer is lost: the retry carries the same Idempotency-Key.
    await mock.admin.scenarios.activate({
      name: 'connection-reset',
      account_id: tenant.id,
      operation_id: 'createApiKey',
      times: 1,
      params: { when: 'after' },
    });
    await client.createKey('ci');
    expect(await keyNames()).toEqual(['Default', 'ci']);
    await expectNoFindings(tenant);
  });
});

describe('a client that retries in a hurry', () => {
  it('ignores Retry-After: the finding names the 429 and the request sent too soon', async () => {
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 1, params: { retry_after: 30 } });
    await hastyClient().status();
    const [finding] = (await tenant.findings({ rule: 'retry-after-ignored' })).data;
    expect(finding).toMatchObject({ severity: 'error', section: 'spec §8', operation_id: 'getStatus' });
    expect(finding.message).toContain('Retry-After: 30');
    expect(finding.request_ids).toHaveLength(2);
    // The one-line assertion fails, listing the finding with its message and requests.
    await expect(expectNoFindings(tenant)).rejects.toThrow(/retry-after-ignored[\s\S]*requests: req_\w+, req_\w+/);
  });

  it('retries a write without an Idempotency-Key after its answer was lost: the key was made twice', async () => {
    await mock.admin.scenarios.activate({
      name: 'connection-reset',
      account_id: tenant.id,
      operation_id: 'createApiKey',
      times: 1,
      params: { when: 'after' },
    });
    await hastyClient().createKey('ci');
    expect(await keyNames()).toEqual(['Default', 'ci', 'ci']);
    const [finding] = (await tenant.findings()).data;
    expect(finding).toMatchObject({ rule: 'write-retried-without-idempotency-key', operation_id: 'createApiKey' });
    expect(finding.message).toContain('twice');
  });
});

describe('a test that provokes a rule on purpose', () => {
  // Its own tenant, with the rule off from its creation: it raises nothing and costs nothing.
  const silenced = useTenant(mock, { plan: 'paid', findings: { rules: { 'retry-after-ignored': 'off' } } });

  it('turns that rule off for its tenant, and still sees every other rule', async () => {
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: silenced.id, times: 1, params: { retry_after: 30 } });
    await createClient({ baseUrl: mock.apiUrl, apiKey: silenced.token, policy: 'hasty' }).status();
    await expectNoFindings(silenced);
    expect((await silenced.findings.rules()).rules).toMatchObject({ 'retry-after-ignored': 'off', 'retry-without-backoff': 'on' });
  });
});
