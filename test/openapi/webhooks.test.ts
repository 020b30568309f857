import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/operations/event-types.js';
import { createAjv2020 } from '../support/contract.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ACCOUNTS, KEYS, bearer, sandbox } from '../webhooks/support.js';

type Json = Record<string, any>;

/** The payload schema of a webhook, its `$ref`s resolved against the document it came from. */
function payloadValidator(document: Json, type: string) {
  const body = document.webhooks[type].post.requestBody.content['application/json'].schema as Json;
  const ajv = createAjv2020({ strict: false, allowUnionTypes: true });
  return ajv.compile({ allOf: [body], components: document.components });
}

describe('the webhooks of /openapi.json (contract §4.3, OpenAPI 3.1)', () => {
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
  });
  afterAll(() => hooks.close());

  it('lists one webhook per event type, its payload named and hoisted into components', async () => {
    const s = sandbox();
    const document = (await s.api.get('/openapi.json')).body as Json;
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    expect(document.webhooks['job.completed'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/JobCompletedEvent',
    });
    // The very schema the API answers with: the event's data.object refers to the same component.
    expect(document.components.schemas.JobCompletedEvent.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/Job' });
  });

  it('every event type, as a receiver gets it, validates against its webhooks schema', async () => {
    const s = sandbox();
    const document = (await s.api.get('/openapi.json')).body as Json;
    await s.endpoint(hooks.url);
    // Real records first (a job that completes, one that fails), then a sample for every type.
    await s.api.post('/__admin/scenarios').send({ name: 'crawl-fails', account_id: ACCOUNTS.free, times: 1 });
    await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    await s.advance(600);
    for (const type of EVENT_TYPES) expect((await s.trigger(type)).status).toBe(201);
    // And samples made for an account with no records at all.
    const bareId = s.app.sandbox.world.createAccount({ plan: 'free', populate: false }).id;
    expect((await s.api.get(`/__admin/accounts/${bareId}`)).body.state.customers).toEqual([]);
    await s.endpoint(hooks.url, {}, bareId);
    for (const type of EVENT_TYPES) await s.trigger(type, bareId);
    await s.advance(0);
    const seen = new Set<string>();
    for (const arrival of hooks.arrivals) {
      const validate = payloadValidator(document, arrival.json.type);
      expect(validate(arrival.json), `${arrival.json.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      seen.add(arrival.json.type);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
