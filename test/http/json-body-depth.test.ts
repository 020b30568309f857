/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/http/json-body.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';

describe('spec §1: JSON bodies', () => {
  it(`refuses bodies nested deeper than ${MAX_BODY_DEPTH} levels with 400 and creates nothing`, async () => {
    const app = makeApp();
    const deep = `{"name":null,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await client(app)
      .post('/v1/auth/keys')
      .set(bearer(KEYS.free))
      .set('Content-Type', 'application/json')
      .set('Idempotency-Key', 'deep-1')
      .send(deep);
    expectError(res, 'bad_request', { message: MESSAGES.bodyTooDeep(MAX_BODY_DEPTH) });
  });
});
