import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { sendConversions } from '../../src/resources/ads/operations.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

const NOW = Date.parse(FROZEN_AT) / 1000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const purchase = {
  event_name: 'Purchase',
  event_time: NOW - 120,
  event_id: 'order_1001',
  action_source: 'website',
  event_source_url: 'https://example.com/checkout/thanks',
  user_data: { email: ' Ada@Example.com ', phone: '+1 (555) 010-2030', client_ip_address: '203.0.113.7', client_user_agent: 'Mozilla/5.0' },
  custom_data: { value: 49, currency: 'USD', order_id: '1001', content_ids: ['prod_course'] },
};

/** A conversions record of an event sent to the free account's pinned destination without test_code. */
const recorded = (members: Record<string, unknown>) => ({
  id: expect.stringMatching(/^conv_/),
  object: 'conversion',
  ad_account_id: PINNED.free.adAccount,
  destination_id: PINNED.free.destination,
  ...members,
  test: false,
  test_code: null,
  received_at: FROZEN_AT,
});

describe('POST /v1/ads/conversions (spec §4.6)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const send = (body: unknown, token: string = KEYS.free) =>
    client(app)
      .post('/v1/ads/conversions')
      .set(bearer(token))
      .send(body as object);
  const valid = (extra: Record<string, unknown> = {}) => ({
    account_id: PINNED.free.adAccount,
    destination_id: PINNED.free.destination,
    events: [purchase],
    ...extra,
  });

  it('§4.6, §2.10: accepts events for a destination of the given ad account and answers the conversion result object', async () => {
    const res = await send(valid());
    expectSuccess(res, sendConversions);
    expect(res.body).toEqual({});
  });

  it('§4.6, contract §3.2: every event is recorded in conversions, email and phone normalised and hashed', async () => {
    await send(valid({ events: [purchase, { event_name: 'Lead', event_time: NOW, user_data: { external_id: 'cus_42' } }] }));
    const { conversions } = await stateOf(app, ACCOUNTS.free);
    expect(conversions).toEqual([
      recorded({
        ...purchase,
        user_data: {
          email: sha256('ada@example.com'),
          phone: sha256('15550102030'),
          client_ip_address: '203.0.113.7',
          client_user_agent: 'Mozilla/5.0',
        },
      }),
      expect.objectContaining({ event_name: 'Lead', event_time: NOW, user_data: { external_id: 'cus_42' } }),
    ]);
  });

  it('§4.6: an already hashed email is stored as sent', async () => {
    const hashed = sha256('ada@example.com');
    await send(valid({ events: [{ event_name: 'Lead', event_time: NOW, user_data: { email: hashed } }] }));
    expect((await stateOf(app, ACCOUNTS.free)).conversions[0]!.user_data).toEqual({ email: hashed });
  });

  it('§4.6: test_code marks the events as test events', async () => {
    const res = await send(valid({ test_code: 'TEST12345' }));
    expectSuccess(res, sendConversions);
    const { conversions } = await stateOf(app, ACCOUNTS.free);
    expect(conversions.map((c) => [c.test, c.test_code])).toEqual([[true, 'TEST12345']]);
  });

  it('§4.6: a destination of another ad account of the same caller is 404 naming destination_id', async () => {
    const { ad_destinations } = await stateOf(app, ACCOUNTS.free);
    const other = ad_destinations.find((d) => d.account_id !== PINNED.free.adAccount)!;
    const res = await send(valid({ destination_id: other.id }));
    expectError(res, 'resource_missing', {
      param: 'destination_id',
      message: `No such destination in ad account '${PINNED.free.adAccount}': '${other.id}'.`,
    });
    expect((await stateOf(app, ACCOUNTS.free)).conversions).toEqual([]);
  });

  it('§4.6: an unknown destination is 404 naming destination_id', async () => {
    const res = await send(valid({ destination_id: 'addest_nope' }));
    expectError(res, 'resource_missing', {
      param: 'destination_id',
      message: `No such destination in ad account '${PINNED.free.adAccount}': 'addest_nope'.`,
    });
  });

  it('§4.6: an unknown ad account is 404 naming account_id', async () => {
    const res = await send(valid({ account_id: 'adacct_nope' }));
    expectError(res, 'resource_missing', { param: 'account_id', message: "No such ad account: 'adacct_nope'." });
  });

  it("tenancy: another caller's ad account and destination are 404 and record nothing anywhere", async () => {
    const res = await send(valid({ account_id: PINNED.paid.adAccount, destination_id: PINNED.paid.destination }));
    expectError(res, 'resource_missing', { param: 'account_id', message: `No such ad account: '${PINNED.paid.adAccount}'.` });
    expect((await stateOf(app, ACCOUNTS.paid)).conversions).toEqual([]);
    expect((await stateOf(app, ACCOUNTS.free)).conversions).toEqual([]);
  });

  it('tenancy: a tenant made through the admin API sends to its own destinations only', async () => {
    const tenant = await newTenant(app, 'paid');
    const [destination] = (await stateOf(app, tenant.accountId)).ad_destinations;
    const own = await send({ account_id: destination!.account_id, destination_id: destination!.id, events: [purchase] }, tenant.token);
    expectSuccess(own, sendConversions);
    expectError(await send(valid(), tenant.token), 'resource_missing', {
      param: 'account_id',
      message: `No such ad account: '${PINNED.free.adAccount}'.`,
    });
    expect((await stateOf(app, tenant.accountId)).conversions).toHaveLength(1);
  });

  it('spec §4.6 (element shape of events not shown): an event without user_data, with value and currency at its top level, is accepted and recorded as sent', async () => {
    const event = {
      event_name: 'Purchase',
      event_time: NOW,
      value: 49.5,
      currency: 'usd',
      order_id: 1001,
      contents: [{ id: 'prod_1', quantity: 2 }],
    };
    const res = await send(valid({ events: [event] }));
    expectSuccess(res, sendConversions);
    const { conversions } = await stateOf(app, ACCOUNTS.free);
    expect(conversions).toEqual([recorded(event)]);
  });

  it('spec §4.6: user_data sent as null is accepted and recorded as sent', async () => {
    const event = { event_name: 'Lead', event_time: NOW, user_data: null };
    const res = await send(valid({ events: [event] }));
    expectSuccess(res, sendConversions);
    const { conversions } = await stateOf(app, ACCOUNTS.free);
    expect(conversions).toEqual([recorded(event)]);
  });

  it('spec §4.6: old and future events, ISO 8601 times, any action_source, user_data without an identifier and value without currency are recorded', async () => {
    const events = [
      { event_name: 'Lead', event_time: NOW - 30 * 86400, action_source: 'billboard', user_data: { client_ip_address: '203.0.113.7' } },
      { event_name: 'Purchase', event_time: '2026-01-15T11:00:00Z', custom_data: { value: 10 }, user_data: { email: 'not an email' } },
      { event_name: 'Subscribe', event_time: NOW + 3600, event_source_url: 'not a url' },
    ];
    expectSuccess(await send(valid({ events, test_code: 'any code at all' })), sendConversions);
    const { conversions } = await stateOf(app, ACCOUNTS.free);
    expect(conversions.map((c) => [c.event_name, c.event_time, c.action_source, c.test_code])).toEqual([
      ['Lead', NOW - 30 * 86400, 'billboard', 'any code at all'],
      ['Purchase', '2026-01-15T11:00:00Z', undefined, 'any code at all'],
      ['Subscribe', NOW + 3600, undefined, 'any code at all'],
    ]);
  });

  it('spec §4.6: an event needs only what the sandbox records it by: a name and a time (422 naming each, every event at once)', async () => {
    const res = await send(valid({ events: [purchase, { event_time: NOW }, { event_name: 'Lead', event_time: 'yesterday' }, 'Purchase'] }));
    expectError(res, 'validation_failed', {
      param: 'events.1.event_name',
      errors: {
        'events.1.event_name': ["must have required property 'event_name'"],
        'events.2.event_time': ['must be of type number', 'must be a valid date-time'],
        'events.3': ['must be of type object'],
      },
    });
    expect((await stateOf(app, ACCOUNTS.free)).conversions).toEqual([]);
  });

  it('spec §4.6: an empty events array records nothing and answers the conversion result', async () => {
    expectSuccess(await send(valid({ events: [] })), sendConversions);
    expect((await stateOf(app, ACCOUNTS.free)).conversions).toEqual([]);
  });

  it('§4.6, §7.2: each required field missing is 400 parameter_missing', async () => {
    for (const field of ['account_id', 'destination_id', 'events']) {
      const body: Record<string, unknown> = valid();
      delete body[field];
      expectError(await send(body), 'parameter_missing', { param: field, message: MESSAGES.missingParameter(field) });
    }
  });

  it('§1: raw ids are refused naming the parameter', async () => {
    const res = await send(valid({ account_id: '998877' }));
    expectError(res, 'validation_failed', {
      param: 'account_id',
      errors: { account_id: ["must be an id prefixed 'adacct_' (raw ids are not accepted)"] },
    });
  });

  it('§7.2: an unknown body field is 400 parameter_unknown', async () => {
    expectError(await send(valid({ pixel: 'x' })), 'parameter_unknown', { param: 'pixel', message: MESSAGES.unknownParameter('pixel') });
  });
});
