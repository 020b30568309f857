/** Example: a crawl that fails, driven by the sandbox's virtual clock instead of real waiting. */
import { describe, expect, it } from 'vitest';
import { CrawlFailedError } from './client.js';
import { mock, useTenant } from './sandbox.js';

const tenant = useTenant('paid');

describe('a failed crawl', () => {
  it('spec §3: the client polls until the job fails and reports its error_code; no credits are charged', async () => {
    await mock.admin.scenarios.activate({
      name: 'crawl-fails',
      account_id: tenant.accountId,
      times: 1,
      params: { error_code: 'site_unreachable', error: 'DNS lookup for example.com failed.' },
    });
    const before = (await mock.admin.accounts.get(tenant.accountId)).state.credits;
    // The client's poll interval advances the virtual clock: no test ever sleeps.
    const client = tenant.client({ sleep: async (ms) => void (await mock.admin.clock.advance(ms / 1000)) });
    const error = await client.crawlAndWait('https://example.com/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlFailedError);
    expect((error as CrawlFailedError).job).toMatchObject({ status: 'failed', error_code: 'site_unreachable', credits_used: 0 });
    expect((await mock.admin.accounts.get(tenant.accountId)).state.credits).toEqual(before);
    // `times: 1` is used up: the next crawl completes.
    const job = await client.crawlAndWait('https://example.com/');
    expect(job).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('contract §3.5: one request can ask for the failure itself, with `Prefer: scenario=crawl-fails`', async () => {
    const res = await fetch(`${mock.apiUrl}/web/crawl`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json', Prefer: 'scenario=crawl-fails' },
      body: JSON.stringify({ url: 'https://example.com/blog' }),
    });
    expect(res.headers.get('Preference-Applied')).toBe('scenario=crawl-fails');
    const { id } = (await res.json()) as { id: string };
    await mock.admin.clock.advance(3600);
    expect(await tenant.client().getJob(id)).toMatchObject({ status: 'failed', error_code: 'crawl_failed' });
  });
});
