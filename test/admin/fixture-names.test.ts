/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { client, expectError, makeApp } from '../support/harness.js';

describe('the admin API reads fixtures by name only', () => {
  it.each(['../package.json', '/etc/passwd', 'fixtures/default.json', 'Default'])(
    'refuses %s with 422 and quotes no file',
    async (fixture) => {
      const res = await client(makeApp()).post('/__admin/accounts').send({ fixture });
      expect(res.status).toBe(422);
      expect(res.body.error.param).toBe('fixture');
      expect(res.text).not.toMatch(/creator-commerce-mock"|root:/);
    },
  );

  it('answers an unknown fixture name without echoing loader details', async () => {
    const res = await client(makeApp()).post('/__admin/accounts').send({ fixture: 'nope' });
    expectError(res, 'validation_failed', { api: false, param: 'fixture', errors: { fixture: ["no such fixture: 'nope'"] } });
  });
});
