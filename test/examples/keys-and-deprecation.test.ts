/** Example: a key that expires between two calls, and an operation that turns deprecated. */
import { describe, expect, it } from 'vitest';
import { CommerceApiError, type DeprecationNotice } from './client.js';
import { mock, useTenant } from './sandbox.js';

const tenant = useTenant();

describe('an expired key', () => {
  it('spec §5: the client surfaces 401 authentication_required and does not retry it', async () => {
    const client = tenant.client();
    await client.listExperiences();
    const active = await mock.admin.scenarios.activate({ name: 'keys-expired', api_key_id: tenant.apiKeyId });
    const error = await client.listExperiences().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommerceApiError);
    expect(error).toMatchObject({ status: 401, code: 'authentication_required' });
    const { data } = await mock.admin.requests.list({ api_key_id: tenant.apiKeyId, limit: 2 });
    expect(data.map((entry) => [entry.status, entry.scenario_ids])).toEqual([
      [401, [active.id]],
      [200, []],
    ]);
    // A key of its own, made through the admin API, keeps the tenant working.
    const fresh = await mock.admin.apiKeys.create({ account_id: tenant.accountId, name: 'rotated' });
    expect((await tenant.client({ apiKey: fresh.token }).listExperiences()).object).toBe('list');
    await mock.admin.scenarios.deactivate(active.id);
  });
});

describe('a deprecated operation', () => {
  it('spec §9: the client reports the Deprecation, Sunset and Link it receives', async () => {
    await mock.admin.scenarios.activate({
      name: 'deprecated-operations',
      account_id: tenant.accountId,
      operation_id: 'listExperiences',
      params: { deprecated_at: '2026-02-01T00:00:00Z', sunset: '2026-12-01T00:00:00Z', link: 'https://docs.example.com/experiences-v2' },
    });
    const notices: DeprecationNotice[] = [];
    const client = tenant.client({ onDeprecation: (notice) => notices.push(notice) });
    await client.listExperiences('course');
    await client.getJob('job_unknown').catch(() => undefined);
    expect(notices).toEqual([
      {
        method: 'GET',
        path: '/experiences?type=course',
        deprecation: `@${Date.parse('2026-02-01T00:00:00Z') / 1000}`,
        sunset: 'Tue, 01 Dec 2026 00:00:00 GMT',
        link: '<https://docs.example.com/experiences-v2>; rel="deprecation"',
      },
    ]);
  });
});
