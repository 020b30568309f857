/**
 * Schemas reshaped so that generated clients type them (named components, maps for open objects)
 * must refuse and explain exactly as before: the reshaping is for generators, not for clients that
 * send bad data.
 */
import { describe, expect, it } from 'vitest';
import { bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { PINNED } from '../support/resources.js';

const NOW = Date.parse(FROZEN_AT) / 1000;

function conversionWithAddress(address: unknown) {
  return {
    account_id: PINNED.free.adAccount,
    destination_id: PINNED.free.destination,
    events: [{ event_name: 'Lead', event_time: NOW, user_data: { client_ip_address: address, client_user_agent: 'Mozilla/5.0' } }],
  };
}

describe('client_ip_address typed as a string for generators, recorded as sent (spec §4.6 does not show the event)', () => {
  const send = (address: unknown) =>
    client(makeApp()).post('/v1/ads/conversions').set(bearer(KEYS.free)).send(conversionWithAddress(address));
  const field = 'events.0.user_data.client_ip_address';

  it('accepts an IPv4 and an IPv6 address', async () => {
    for (const address of ['203.0.113.7', '2001:db8::7']) expect((await send(address)).status, address).toBe(200);
  });

  it('any other string is accepted too: the spec does not pin the address format', async () => {
    expect((await send('203.0.113.7, 10.0.0.1')).status).toBe(200);
  });

  it('a value that is no string is refused, once', async () => {
    expectError(await send(203), 'validation_failed', { param: field, errors: { [field]: ['must be of type string'] } });
  });
});
