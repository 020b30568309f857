/**
 * Hardening found in review: `fixture` in `POST /__admin/accounts` is a name under the package's
 * fixtures/ or a path inside the working directory; anything else is refused cleanly (422 naming
 * `fixture`), never a 500 nor a leak of the host's files.
 */
import { describe, expect, it } from 'vitest';
import { client, expectError, makeApp } from '../support/harness.js';

describe('the admin API reads fixtures by name, or by path inside the working directory only', () => {
  it.each(['../package.json', '/etc/passwd', 'fixtures/../../package.json', 'Default'])(
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
