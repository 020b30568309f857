import { describe, expect, it } from 'vitest';
import { bearer, client, expectApiHeaders, KEYS, makeApp } from '../support/harness.js';

describe('smoke', () => {
  it('answers GET /v1/status for a documented default key', async () => {
    const res = await client(makeApp()).get('/v1/status').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    expectApiHeaders(res);
    expect(res.body.limits.rate_limit.tier).toBe('free');
  });
});
