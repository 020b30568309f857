/**
 * Example (README "Parallel test workers"): a file with a tenant of its own, on a clock of its own.
 * vitest runs this file in parallel with the other example files, which advance the sandbox clock
 * (crawl.test.ts); nothing they do moves this file's clock, jobs, counters or records.
 */
import { describe, expect, it } from 'vitest';
import { useTenant } from '../../src/vitest.js';
import { CommerceClient } from './client.js';
import { mock } from './sandbox.js';

// Created before this file's tests, deleted after them, and reset before each test.
const tenant = useTenant(mock, { plan: 'paid', clock: 'frozen', resetBeforeEach: true });
const client = () =>
  new CommerceClient({ baseUrl: mock.apiUrl, apiKey: tenant.token, sleep: async (ms) => void (await tenant.clock.advance(ms / 1000)) });

describe('a tenant with its own clock', () => {
  it('contract §4.1: a crawl completes when this file advances its own clock, whatever the sandbox clock does', async () => {
    const before = await tenant.clock.get();
    expect(before).toMatchObject({ mode: 'frozen', shared: false });
    const job = await client().crawlAndWait('https://example.com/');
    expect(job).toMatchObject({ status: 'completed', progress: 100 });
    const after = await tenant.clock.get();
    // Only the client's own polls moved this clock: one second per poll.
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThan(0);
  });

  it('contract §4.1: each test starts from the tenant as created: same token, same records, its clock back at its creation instant', async () => {
    const { state } = await tenant.state();
    // The crawl of the previous test is gone, and the clock is where the tenant was created.
    expect(state.jobs).toEqual([]);
    expect((await tenant.clock.get()).now).toBe(tenant.account.clock.now);
    const page = await client().listExperiences();
    expect(page.data.length).toBeGreaterThan(0);
  });
});
