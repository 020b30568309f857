import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { scenarioDir } from '../support/scenarios.js';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

/** The fixture's key ids (fixtures/default.json). */
const KEYS_IDS = { freeDefault: 'key_free_default' } as const;

describe('the webhook scenarios (contract §4.3)', () => {
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

  // "Scoped like any other": a key or an operation narrows a webhook scenario to the events its
  // requests cause (a job's events: the request that created the job).
  const crawl = (s: ReturnType<typeof sandbox>, token: string) =>
    s.api.post('/v1/web/crawl').set(bearer(token)).send({ url: 'https://example.com/', max_pages: 1 });
  const newKey = async (s: ReturnType<typeof sandbox>) =>
    (await s.api.post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 'second' })).body as { id: string; token: string };

  it("contract §4.3: narrowed to an API key, a webhook scenario acts on the events that key's requests cause, and only on them", async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    const second = await newKey(s);
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-duplicated', account_id: ACCOUNTS.free, api_key_id: second.id });
    const byDefault = await crawl(s, KEYS.free);
    const bySecond = await crawl(s, second.token);
    await s.advance(600);
    const sent = hooks.arrivals.map((a) => a.json.data.object.id);
    expect(sent.filter((id) => id === bySecond.body.id)).toHaveLength(2);
    expect(sent.filter((id) => id === byDefault.body.id)).toHaveLength(1);
    // An event nobody's request caused (POST /__admin/events) is outside a key's scope.
    await s.trigger('job.completed');
    await s.advance(0);
    expect(hooks.arrivals).toHaveLength(4);
  });

  it('contract §4.3: narrowed to an operation, a webhook scenario acts on the events that operation causes', async () => {
    const hooks = await receiver();
    const s = sandbox();
    const endpoint = await s.endpoint(hooks.url, { events: ['api_key.created', 'job.completed'] });
    await s.api.post('/__admin/scenarios').send({ name: 'webhooks-badly-signed', operation_id: 'createApiKey' });
    await newKey(s);
    await hooks.received(1);
    await crawl(s, KEYS.free);
    await s.advance(600);
    const [keyEvent, jobEvent] = hooks.arrivals;
    expect([keyEvent!.json.type, jobEvent!.json.type]).toEqual(['api_key.created', 'job.completed']);
    const verifier = new Webhook(endpoint.secret);
    expect(() => verifier.verify(keyEvent!.body, keyEvent!.headers)).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(jobEvent!.body, jobEvent!.headers)).not.toThrow();
  });

  it('contract §4.3: webhooks-out-of-order narrowed to a key sends its events due together newest first, in their places', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    const second = await newKey(s);
    await s.api
      .post('/__admin/scenarios')
      .send({ name: 'webhooks-out-of-order', account_id: ACCOUNTS.free, api_key_id: KEYS_IDS.freeDefault });
    // On the frozen clock the three jobs end at one instant, so their events are due together.
    const a1 = await crawl(s, KEYS.free);
    const b1 = await crawl(s, second.token);
    const a2 = await crawl(s, KEYS.free);
    await s.advance(600);
    // Due in the order a1, b1, a2: the key's two swap places, the other key's stays where it was.
    expect(hooks.arrivals.map((a) => a.json.data.object.id)).toEqual([a2.body.id, b1.body.id, a1.body.id]);
    expect((await s.api.get('/__admin/scenarios')).body.active).toHaveLength(1);
  });

  it('contract §4.3: two webhooks-out-of-order activations narrowed to two keys each reorder their own deliveries of one batch', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    const second = await newKey(s);
    for (const api_key_id of [KEYS_IDS.freeDefault, second.id]) {
      await s.api.post('/__admin/scenarios').send({ name: 'webhooks-out-of-order', account_id: ACCOUNTS.free, api_key_id, times: 1 });
    }
    const a1 = await crawl(s, KEYS.free);
    const b1 = await crawl(s, second.token);
    const a2 = await crawl(s, KEYS.free);
    const b2 = await crawl(s, second.token);
    await s.advance(600);
    expect(hooks.arrivals.map((a) => a.json.data.object.id)).toEqual([a2, b2, a1, b1].map((res) => res.body.id));
    // Each counted its batch: `times: 1` retired both.
    expect((await s.api.get('/__admin/scenarios')).body.active).toEqual([]);
  });

  it("contract §3.5, §4.3: a rule's match narrows its webhook part to the events of the operations it matches", async () => {
    const hooks = await receiver();
    const s = sandbox({
      scenariosDir: scenarioDir({
        'crawl-webhooks-twice.json': {
          description: 'The webhooks of crawls are sent twice.',
          rules: [{ match: { operations: ['crawlSite'] }, effect: { webhook: 'duplicate' } }],
        },
      }),
    });
    await s.endpoint(hooks.url, { events: ['api_key.created', 'job.completed'] });
    await s.api.post('/__admin/scenarios').send({ name: 'crawl-webhooks-twice' });
    await newKey(s);
    await hooks.received(1);
    // Before the crawl, so that its sample is not the crawl's job.
    const triggered = (await s.trigger('job.completed')).body as { id: string };
    await hooks.received(2);
    const job = await crawl(s, KEYS.free);
    await s.advance(600);
    // api_key.created (createApiKey) once, the triggered event (no operation) once, the crawl's twice.
    expect(hooks.arrivals.map((a) => a.json.type)).toEqual(['api_key.created', 'job.completed', 'job.completed', 'job.completed']);
    expect(hooks.arrivals.filter((a) => a.json.id === triggered.id)).toHaveLength(1);
    expect(hooks.arrivals.filter((a) => a.json.data.object.id === job.body.id)).toHaveLength(2);
  });

  it('contract §4.3, RFC 7240: a webhook scenario asked for with Prefer acts on nothing (documented)', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['api_key.created'] });
    const res = await s.api
      .post('/v1/auth/keys')
      .set({ ...bearer(KEYS.free), Prefer: 'scenario=webhooks-duplicated' })
      .send({ name: 'asked' });
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBeUndefined();
    await hooks.received(1);
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
