/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';
import { ConfigError } from '../../src/errors/config-error.js';
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

describe('date-times (spec §2, contract §3.3, §4.1) name instants that exist on the calendar', () => {
  const IMPOSSIBLE = [
    '2026-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z', // 2026 is not a leap year
    '1900-02-29T00:00:00Z', // a century, not divisible by 400
    '2026-04-31T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-06-30T23:59:60Z',
    '2026-01-01T12:00:00+24:00',
  ];
  const REAL = ['2028-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2026-12-31T23:59:59Z', '2026-03-01T00:30:00+23:59'];

  it('spec §2: parseInstant refuses a day past its month, 24:00 and leap seconds instead of rolling them over; leap days of leap years are real', async () => {
    const { parseInstant } = await import('../../src/clock/virtual-clock.js');
    for (const value of IMPOSSIBLE) expect(parseInstant(value), value).toBeUndefined();
    for (const value of REAL) expect(parseInstant(value), value).toBe(Date.parse(value));
  });

  it('contract §3.3: POST /__admin/clock refuses 2026-02-30 with 422 naming `now`, and the clock stays', async () => {
    const app = makeApp();
    for (const now of IMPOSSIBLE) {
      const res = await client(app).post('/__admin/clock').send({ now });
      expect(res.status, now).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', param: 'now' });
    }
    expect((await client(app).get('/__admin/clock')).body.now).toBe('2026-01-15T12:00:00.000Z');
    expect((await client(app).post('/__admin/clock').send({ now: '2028-02-29T00:00:00Z' })).body.now).toBe('2028-02-29T00:00:00.000Z');
  });

  it('contract §4.1: POST /__admin/accounts {"clock"} and POST …/accounts/{id}/clock refuse 2026-02-30 with 422 naming the field', async () => {
    const app = makeApp();
    const created = await client(app).post('/__admin/accounts').send({ clock: '2026-02-30T00:00:00Z' });
    expectError(created, 'validation_failed', { api: false, param: 'clock', errors: { clock: [expect.any(String)] } });
    const own = await client(app).post(`/__admin/accounts/${ACCOUNTS.free}/clock`).send({ now: '2026-02-29T12:00:00Z' });
    expect(own.status).toBe(422);
    expect(own.body.error).toMatchObject({ code: 'validation_failed', param: 'now' });
    const leap = await client(app).post('/__admin/accounts').send({ clock: '2028-02-29T00:00:00Z' });
    expect(leap.body.account.clock).toEqual({ now: '2028-02-29T00:00:00.000Z', mode: 'frozen', shared: false });
  });

  it('contract §3.2: POST /__admin/api_keys refuses an expires_at of 2026-02-30 with 422 naming it', async () => {
    const res = await client(makeApp()).post('/__admin/api_keys').send({ account_id: ACCOUNTS.free, expires_at: '2026-02-30T00:00:00Z' });
    expectError(res, 'validation_failed', { api: false, param: 'expires_at', errors: { expires_at: ['must be a valid date-time'] } });
  });

  it('spec §2, §7.2: a /v1 date-time and a scenario param that takes an instant refuse 2026-02-30 too', async () => {
    const app = makeApp();
    const { PINNED } = await import('../support/resources.js');
    const session = await client(app)
      .post(`/v1/experiences/${PINNED.free.workshop}/event_sessions`)
      .set(bearer(KEYS.free))
      .send({ start_time: '2026-02-30T10:00:00Z' });
    expect(session.status).toBe(422);
    expect(session.body.error.errors).toHaveProperty('start_time');
    const scenario = await client(app)
      .post('/__admin/scenarios')
      .send({ name: 'deprecated-operations', params: { deprecated_at: '2026-02-30T00:00:00Z' } });
    expect(scenario.status).toBe(422);
    expect(scenario.body.error.param).toBe('params.deprecated_at');
  });

  it('contract §1: a fixture date of 2026-02-30 stops start-up naming the path inside the file', async () => {
    const { writeFixture } = await import('../support/protocol.js');
    const fixture = writeFixture({
      deprecations: [
        { operation_id: 'getStatus', deprecated_at: '2026-02-30T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: 'https://x.test' },
      ],
    });
    expect(() => makeApp({ fixtures: fixture })).toThrow(/deprecations\/0\/deprecated_at/);
  });

  it('contract §1: --clock 2026-02-30T00:00:00Z is a ConfigError naming the setting', () => {
    expect(() => resolveOptions({ clock: '2026-02-30T00:00:00Z' })).toThrow(ConfigError);
    expect(() => resolveOptions({ clock: '2026-02-30T00:00:00Z' })).toThrow(/clock/);
    expect(resolveOptions({ clock: '2028-02-29T00:00:00Z' }).clock.start).toBe(Date.parse('2028-02-29T00:00:00Z'));
  });
});
