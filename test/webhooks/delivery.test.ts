import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { FROZEN_AT } from '../support/harness.js';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

describe('webhooks are signed, delivered and logged (contract §4.3)', () => {
  it('contract §4.3: a delivery verifies with standardwebhooks and the endpoint secret; webhook-id is the event id', async () => {
    const hooks = await receiver();
    const s = sandbox();
    const endpoint = await s.endpoint(hooks.url);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const res = await s.api.patch('/v1/email/inboxes/inbox_free_support').set(bearer(KEYS.free)).send({ display_name: 'Help desk' });
    expect(res.status).toBe(200);
    const [arrival] = await hooks.received(1);
    const event = new Webhook(endpoint.secret).verify(arrival!.body, arrival!.headers) as Record<string, unknown>;
    expect(event).toMatchObject({ object: 'event', type: 'inbox.updated', account_id: ACCOUNTS.free, created_at: FROZEN_AT });
    // data.object is the resource exactly as the API answered it.
    expect((event.data as { object: unknown }).object).toEqual(res.body);
    expect(arrival!.headers['webhook-id']).toBe(event.id);
    // The real time of the attempt, not the frozen virtual clock.
    expect(Math.abs(Number(arrival!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(3600);
  });

  it('contract §4.3: an event due at a job end arrives before the clock advance that reaches it answers', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    const crawl = await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 2 });
    expect(crawl.status).toBe(201);
    expect(hooks.arrivals).toHaveLength(0);
    expect((await s.advance(3600)).status).toBe(200);
    // No waiting: the advance answered after the attempt.
    expect(hooks.arrivals).toHaveLength(1);
    const event = hooks.arrivals[0]!.json;
    expect(event.type).toBe('job.completed');
    expect(event.data.object).toMatchObject({ id: crawl.body.id, status: 'completed' });
    // created_at is the job's end on the account clock, not the advanced-to instant.
    expect(event.created_at).toBe(event.data.object.completed_at);
    expect(Date.parse(event.created_at)).toBeLessThan(Date.parse(FROZEN_AT) + 3600_000);
  });

  it('contract §4.3: a 500 is a failed attempt; the retry comes 5 s later on the account clock with the same webhook-id', async () => {
    const hooks = await receiver((n) => (n === 0 ? 500 : 200));
    const s = sandbox();
    await s.endpoint(hooks.url);
    const event = (await s.trigger('customer.created')).body as { id: string };
    await hooks.received(1);
    // An advance by 0 s waits for the attempt under way to be recorded.
    await s.advance(0);
    const [pending] = await s.deliveries({ account_id: ACCOUNTS.free });
    expect(pending).toMatchObject({ status: 'pending', next_attempt_at: '2026-01-15T12:00:05Z' });
    expect(pending!.attempts).toEqual([
      { at: FROZEN_AT, status_code: 500, error: 'receiver answered 500', duration_ms: expect.any(Number) },
    ]);
    await s.advance(4);
    expect(hooks.arrivals).toHaveLength(1);
    await s.advance(1);
    expect(hooks.arrivals).toHaveLength(2);
    expect(hooks.arrivals.map((a) => a.headers['webhook-id'])).toEqual([event.id, event.id]);
    const [done] = await s.deliveries({ account_id: ACCOUNTS.free });
    expect(done).toMatchObject({ status: 'succeeded', next_attempt_at: null });
    expect(done!.attempts.map((a) => [a.at, a.status_code])).toEqual([
      [FROZEN_AT, 500],
      ['2026-01-15T12:00:05Z', 200],
    ]);
  });

  it('contract §4.3: retries falling due within one advance all run, in time order, until the schedule ends failed', async () => {
    const hooks = await receiver(() => 503);
    const s = sandbox();
    await s.endpoint(hooks.url);
    await s.trigger('api_key.created');
    await s.advance(2 * 86_400);
    expect(hooks.arrivals).toHaveLength(8);
    const [failed] = await s.deliveries();
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
    const gaps = failed!.attempts.slice(1).map((a, i) => (Date.parse(a.at) - Date.parse(failed!.attempts[i]!.at)) / 1000);
    expect(gaps).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
  });

  it('contract §4.3: an endpoint receives only the types of its filter', async () => {
    const all = await receiver();
    const only = await receiver();
    const s = sandbox();
    await s.endpoint(all.url);
    const filtered = await s.endpoint(only.url, { events: ['discount.deleted'] });
    await s.api.patch('/v1/email/inboxes/inbox_free_support').set(bearer(KEYS.free)).send({ display_name: 'x' });
    await s.api.delete('/v1/discounts/launch20').set(bearer(KEYS.free));
    await all.received(2);
    await s.advance(0);
    expect(only.arrivals.map((a) => a.json.type)).toEqual(['discount.deleted']);
    expect((await s.deliveries({ endpoint_id: filtered.id })).map((d) => d.event.type)).toEqual(['discount.deleted']);
  });

  it('contract §4.3: a deleted endpoint gets nothing more, its pending retries included', async () => {
    const hooks = await receiver(() => 500);
    const s = sandbox();
    const endpoint = await s.endpoint(hooks.url);
    await s.deliverOnce(hooks);
    expect((await s.api.delete(`/__admin/webhook_endpoints/${endpoint.id}`)).body).toEqual({
      id: endpoint.id,
      object: 'webhook_endpoint',
      deleted: true,
    });
    await s.advance(86_400);
    expect(hooks.arrivals).toHaveLength(1);
    expect(await s.deliveries()).toMatchObject([{ status: 'failed', next_attempt_at: null }]);
    expect((await s.api.get(`/__admin/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    await s.trigger('inbox.updated');
    await s.advance(0);
    expect(hooks.arrivals).toHaveLength(1);
  });

  it('contract §4.3: each event type caused by a request is emitted where the state changes', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url);
    const auth = bearer(KEYS.free);
    const submitted = await s.api.post('/v1/form_submissions').set(auth).send({ form_id: 'frm_free_newsletter', email: 'ada@example.com' });
    expect(submitted.status).toBe(201);
    await s.api.post('/v1/auth/keys').set(auth).send({ name: 'ci' });
    await s.api.delete('/v1/price_variants/pv_free_pro/experiences/exp_free_course').set(auth);
    await s.api.post('/v1/experiences/exp_free_workshop/event_sessions').set(auth).send({ start_time: '2026-02-01T10:00:00Z' });
    await s.advance(0);
    const types = hooks.arrivals.map((a) => a.json.type);
    expect(types).toEqual([
      'customer.created',
      'form_submission.created',
      'api_key.created',
      'experience_link.deleted',
      'event_session.created',
    ]);
    // Secrets never travel in events.
    expect(hooks.arrivals[2]!.json.data.object.token).toBeNull();
  });
});
