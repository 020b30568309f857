/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { client, KEYS, makeApp } from '../support/harness.js';

describe('spec §5.1: the Bearer scheme', () => {
  it('accepts the scheme name in any case (RFC 9110 §11.1)', async () => {
    const res = await client(makeApp()).get('/v1/status').set('Authorization', `bearer ${KEYS.free}`);
    expect(res.status).toBe(200);
  });
});
