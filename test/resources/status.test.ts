/** Spec §4.13, §2.11 and the §8 values by plan. */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/operations/validation.js';
import { getStatus } from '../../src/resources/status/operations.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';

const validStatus = compileSchema(getStatus.success.schema);

describe('spec §2.11: the status report', () => {
  it('reports the free tier limits of §8 for a free account', async () => {
    const res = await client(makeApp()).get('/v1/status').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    expect(validStatus(res.body), JSON.stringify(validStatus.errors)).toBe(true);
    expect(res.body.limits.rate_limit).toEqual({
      tier: 'free',
      limit: 600,
      window_seconds: 60,
      remaining: 599,
      resets_at: '2026-01-15T12:01:00Z',
    });
    expect(res.body.limits.pagination).toEqual({ default_limit: 15, max_limit: 100 });
    expect(res.body.limits.task_runs).toEqual({ max_concurrent_per_account: 2, max_concurrent_per_task: 1, max_runtime_seconds: 300 });
  });

  it('reports the paid tier limits for a paid account', async () => {
    const res = await client(makeApp()).get('/v1/status').set(bearer(KEYS.paid));
    expect(res.body.limits.rate_limit).toMatchObject({ tier: 'paid', limit: 3000, remaining: 2999 });
    expect(res.body.limits.task_runs.max_concurrent_per_account).toBe(20);
  });

  it('follows the plan at once when the admin API switches it', async () => {
    const app = makeApp();
    await client(app).patch(`/__admin/accounts/${ACCOUNTS.free}`).send({ plan: 'paid' }).expect(200);
    const res = await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(res.body.limits.rate_limit).toMatchObject({ tier: 'paid', limit: 3000 });
  });

  it('reports the live counter: remaining falls with every request of the key', async () => {
    const app = makeApp();
    await client(app).get('/v1/auth/keys').set(bearer(KEYS.free));
    await client(app).get('/v1/nope').set(bearer(KEYS.free));
    const res = await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(res.body.limits.rate_limit.remaining).toBe(597);
    expect(res.headers['x-ratelimit-remaining']).toBe('597');
  });
});
