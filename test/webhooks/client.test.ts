import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../../src/admin/client.js';
import type { MockServer } from '../../src/server.js';
import { ACCOUNTS, startServer } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

describe('mock.admin.webhooks, the typed client of contract §4.3', () => {
  let mock: MockServer;
  let hooks: Receiver;
  beforeAll(async () => {
    mock = await startServer();
    hooks = await startReceiver();
  });
  afterAll(async () => {
    await hooks.close();
    await mock.close();
  });

  it('contract §4.3: creates an endpoint, triggers an event, and reads the delivery it made', async () => {
    const endpoint = await mock.admin.webhooks.createEndpoint({ account_id: ACCOUNTS.paid, url: hooks.url, events: ['customer.created'] });
    expect(await mock.admin.webhooks.listEndpoints({ account_id: ACCOUNTS.paid })).toMatchObject({ data: [endpoint] });
    const event = await mock.admin.webhooks.trigger({ account_id: ACCOUNTS.paid, type: 'customer.created' });
    await mock.admin.clock.advance(0);
    const [arrival] = hooks.arrivals;
    expect(new Webhook(endpoint.secret).verify(arrival!.body, arrival!.headers)).toEqual(event);
    const { data } = await mock.admin.webhooks.deliveries({ account_id: ACCOUNTS.paid, status: 'succeeded' });
    expect(data).toMatchObject([{ endpoint_id: endpoint.id, event, status: 'succeeded', next_attempt_at: null }]);
    expect(await mock.admin.webhooks.delivery(data[0]!.id)).toEqual(data[0]);
    await mock.admin.webhooks.deleteEndpoint(endpoint.id);
    await expect(mock.admin.webhooks.getEndpoint(endpoint.id)).rejects.toBeInstanceOf(AdminError);
  });
});
