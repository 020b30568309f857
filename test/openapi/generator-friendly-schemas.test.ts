/**
 * Schemas reshaped so that generated clients type them (issue 14 item 4) must refuse and explain
 * exactly as before: the reshaping is for generators, not for clients that send bad data.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
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

describe('issue 14.4: client_ip_address as a union of typed strings (spec §4.6)', () => {
  const send = (address: unknown) => client(makeApp()).post('/v1/ads/conversions').set(bearer(KEYS.free)).send(conversionWithAddress(address));
  const field = 'events.0.user_data.client_ip_address';

  it('issue 14.4: accepts an IPv4 and an IPv6 address', async () => {
    for (const address of ['203.0.113.7', '2001:db8::7']) expect((await send(address)).status, address).toBe(200);
  });

  it('issue 14.4: a string that is no address is refused naming both formats', async () => {
    expectError(await send('not-an-address'), 'validation_failed', {
      message: MESSAGES.validationFailed,
      param: field,
      errors: { [field]: ['must be a valid ipv4', 'must be a valid ipv6'] },
    });
  });

  it('issue 14.4: a value that is no string is refused once, not once per branch of the union', async () => {
    expectError(await send(203), 'validation_failed', { param: field, errors: { [field]: ['must be of type string'] } });
  });
});
