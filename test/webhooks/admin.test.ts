import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/operations/event-types.js';
import { expectError } from '../support/harness.js';
import { ACCOUNTS, sandbox } from './support.js';

const URL_OK = 'http://127.0.0.1:9/hooks';

describe('the webhook admin routes validate like the others (contract §4.3)', () => {
  it('contract §4.3: an endpoint is created with a whsec_ secret, the default filter, and listed per account', async () => {
    const s = sandbox();
    const res = await s.api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: URL_OK });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^we_/),
      object: 'webhook_endpoint',
      account_id: ACCOUNTS.free,
      url: URL_OK,
      events: ['*'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      status: 'enabled',
      created_at: '2026-01-15T12:00:00Z',
    });
    expect((await s.api.get('/__admin/webhook_endpoints').query({ account_id: ACCOUNTS.free })).body).toEqual({
      object: 'list',
      data: [res.body],
      has_more: false,
    });
    expect((await s.api.get('/__admin/webhook_endpoints').query({ account_id: ACCOUNTS.paid })).body.data).toEqual([]);
    expect((await s.api.get(`/__admin/webhook_endpoints/${res.body.id}`)).body).toEqual(res.body);
  });

  it('contract §4.3: the same seed gives the same endpoint ids and secrets; a given secret is kept', async () => {
    const first = await sandbox().endpoint(URL_OK);
    const again = await sandbox().endpoint(URL_OK);
    expect(again).toEqual(first);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect((await sandbox().endpoint(URL_OK, { secret })).secret).toBe(secret);
  });

  it.each([['ftp://example.com/hooks'], ['/relative/path'], ['javascript:alert(1)'], ['not a url']])(
    'contract §4.3: url %s is refused with 422 naming url',
    async (url) => {
      const res = await sandbox().api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url });
      expectError(res, 'validation_failed', {
        api: false,
        param: 'url',
        errors: { url: ['must be an absolute http or https URL'] },
        message: /.*/,
      });
    },
  );

  it('contract §4.3: unknown account, unknown event types, a malformed secret and bad JSON answer the envelope', async () => {
    const { api } = sandbox();
    expectError(await api.post('/__admin/webhook_endpoints').send({ account_id: 'acct_nope', url: URL_OK }), 'resource_missing', {
      api: false,
      param: 'account_id',
      message: "No such account: 'acct_nope'.",
    });
    const badType = await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: URL_OK, events: ['order.paid'] });
    expect(badType.status).toBe(422);
    expect(JSON.stringify(badType.body.error.errors)).toContain('job.completed');
    const badSecret = await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: URL_OK, secret: 'hunter2' });
    expect(badSecret.status).toBe(422);
    const badJson = await api.post('/__admin/webhook_endpoints').set('Content-Type', 'application/json').send('{"account_id":');
    expect(badJson.status).toBe(400);
    expect(Object.keys(badJson.body)).toEqual(['error']);
    expect((await api.post('/__admin/webhook_endpoints').send({ url: URL_OK })).status).toBe(400);
    expectError(await api.delete('/__admin/webhook_endpoints/we_nope'), 'resource_missing', {
      api: false,
      param: 'id',
      message: /we_nope/,
    });
    expectError(await api.get('/__admin/webhook_deliveries/whd_nope'), 'resource_missing', {
      api: false,
      param: 'id',
      message: /whd_nope/,
    });
  });

  it('contract §4.3: POST /__admin/events answers 201 with the event; an unknown type is 422 listing the valid ones', async () => {
    const { api } = sandbox();
    const res = await api.post('/__admin/events').send({ account_id: ACCOUNTS.free, type: 'discount.deleted' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      type: 'discount.deleted',
      created_at: '2026-01-15T12:00:00Z',
      account_id: ACCOUNTS.free,
      data: { object: { id: expect.stringMatching(/^disc_/), object: 'discount', deleted: true } },
    });
    const unknown = await api.post('/__admin/events').send({ account_id: ACCOUNTS.free, type: 'order.paid' });
    expect(unknown.status).toBe(422);
    for (const type of EVENT_TYPES) expect(JSON.stringify(unknown.body.error.errors.type)).toContain(type);
    expectError(await api.post('/__admin/events').send({ account_id: 'acct_nope', type: 'discount.deleted' }), 'resource_missing', {
      api: false,
      param: 'account_id',
      message: "No such account: 'acct_nope'.",
    });
  });

  it.each([
    [{ limit: 0 }, 400],
    [{ limit: 'many' }, 400],
    [{ limit: 1001 }, 400],
    [{ status: 'lost' }, 400],
    [{ event_type: 'order.paid' }, 400],
    [{ colour: 'red' }, 400],
    [{ account_id: 'acct_nope' }, 404],
  ])(
    'contract §4.3: GET /__admin/webhook_deliveries?%j answers %i in the envelope (bad query values are 400, as on /v1)',
    async (query, status) => {
      const res = await sandbox().api.get('/__admin/webhook_deliveries').query(query);
      expect(res.status).toBe(status);
      expect(Object.keys(res.body)).toEqual(['error']);
    },
  );
});
