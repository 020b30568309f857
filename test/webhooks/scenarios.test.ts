import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

describe('issue 18: the webhook scenarios (contract §4.3)', () => {
  it('contract §4.3: webhooks-duplicated sends every delivery twice with one webhook-id', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url);
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-duplicated', account_id: ACCOUNTS.free, times: 1 });
    const event = (await s.trigger('discount.deleted')).body as { id: string };
    await hooks.received(2);
    expect(hooks.arrivals.map((a) => a.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(hooks.arrivals[0]!.body).toBe(hooks.arrivals[1]!.body);
    // `times: 1` counted that event; the next one is sent once.
    await s.trigger('discount.deleted');
    await s.advance(0);
    expect(hooks.arrivals).toHaveLength(3);
  });

  it("contract §4.3: webhooks-badly-signed signs with a secret that is not the endpoint's", async () => {
    const hooks = await receiver();
    const s = sandbox();
    const endpoint = await s.endpoint(hooks.url);
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-badly-signed', account_id: ACCOUNTS.free });
    await s.trigger('inbox.updated');
    const [arrival] = await hooks.received(1);
    expect(arrival!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(() => new Webhook(endpoint.secret).verify(arrival!.body, arrival!.headers)).toThrow(WebhookVerificationError);
  });

  it('contract §4.3: webhooks-out-of-order sends events due together newest first', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-out-of-order', account_id: ACCOUNTS.free });
    const first = await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    await s.advance(1);
    const second = await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    expect(hooks.arrivals).toHaveLength(0);
    await s.advance(600);
    expect(hooks.arrivals.map((a) => a.json.data.object.id)).toEqual([second.body.id, first.body.id]);
    // The events keep their own (ordered) times: the receiver sees created_at go backwards.
    expect(hooks.arrivals[0]!.json.created_at > hooks.arrivals[1]!.json.created_at).toBe(true);
  });

  it("contract §4.3: a webhook scenario scoped to one account leaves another account's webhooks alone", async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, {}, ACCOUNTS.paid);
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-duplicated', account_id: ACCOUNTS.free });
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    await s.advance(0);
    expect(hooks.arrivals).toHaveLength(1);
  });

  it('contract §4.3: a webhook scenario never acts on a request', async () => {
    const s = sandbox();
    const activated = await s.api.post('/__admin/scenarios').send({ name: 'webhooks-duplicated' });
    const res = await s.api.get('/v1/auth/keys').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
    const journal = await s.api.get('/__admin/requests');
    expect(journal.body.data[0].scenario_ids).toEqual([]);
    expect((await s.api.get('/__admin/scenarios')).body.active).toMatchObject([{ id: activated.body.id, remaining: null }]);
  });
});
