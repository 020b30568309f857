/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveOptions } from '../../src/config/options.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';

describe('date-times (spec §2: ISO 8601) are instants with a time zone', () => {
  it('refuses a leap second on the admin clock with 422 and keeps serving', async () => {
    const app = makeApp();
    const res = await client(app).post('/__admin/clock').send({ now: '2026-06-30T23:59:60Z' });
    expectError(res, 'validation_failed', { api: false, param: 'now', errors: { now: ['must be a valid date-time'] } });
    expect((await client(app).get('/__admin/clock')).body.now).toBe('2026-01-15T12:00:00.000Z');
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('refuses a date-time without a time zone in admin bodies (it would depend on the machine)', async () => {
    const res = await client(makeApp()).post('/__admin/api_keys').send({ account_id: ACCOUNTS.free, expires_at: '2026-02-01T00:00:00' });
    expectError(res, 'validation_failed', { api: false, param: 'expires_at', errors: { expires_at: ['must be a valid date-time'] } });
  });

  it('refuses --clock without a time zone', () => {
    expect(() => resolveOptions({ clock: '2026-01-01T00:00:00' })).toThrow(ConfigError);
    expect(resolveOptions({ clock: '2026-01-01T01:00:00+01:00' }).clock.start).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});
