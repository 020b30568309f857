/**
 * Example (docs/findings.md): "my client is well-behaved" as one line of a test. The sandbox sees
 * every request of this file's tenant and reports where the client broke the service's rules.
 */
import { describe, expect, it } from 'vitest';
import { expectNoFindings, useTenant } from '../../src/vitest.js';
import { CommerceClient } from './client.js';
import { mock } from './sandbox.js';

const tenant = useTenant(mock, { plan: 'paid', clock: 'frozen', resetBeforeEach: true });

describe("findings: where a client broke the service's rules", () => {
  it('contract §5.1: a client that honours Retry-After, backs off and keeps its Idempotency-Key earns none', async () => {
    // Its waits advance the tenant's own clock: judged like real sleeps (contract §5 "Elapsed time").
    const client = new CommerceClient({
      baseUrl: mock.apiUrl,
      apiKey: tenant.token,
      sleep: (ms) => tenant.clock.advance(ms / 1000).then(() => {}),
    });
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 2, params: { retry_after: 5 } });
    await client.listExperiences();
    await mock.admin.scenarios.activate({ name: 'server-error', account_id: tenant.id, times: 2 });
    await client.crawlAndWait('https://example.com/');
    await expectNoFindings(tenant);
  });

  it('contract §5.1: a client whose sleep does not wait ignores Retry-After, and the assertion names the requests', async () => {
    const hasty = new CommerceClient({ baseUrl: mock.apiUrl, apiKey: tenant.token, sleep: () => Promise.resolve() });
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 1, params: { retry_after: 5 } });
    await hasty.listExperiences();
    const failure = await expectNoFindings(tenant).catch((error: unknown) => error as Error);
    expect(failure?.message).toContain('retry-after-ignored');
    expect(failure?.message).toMatch(/requests: req_\w+, req_\w+/);
    // A test that provokes a rule on purpose silences just that rule.
    await expectNoFindings(tenant, { ignore: ['retry-after-ignored'] });
  });
});
