/** Webhook cases a review found by probing (contract §4.3, §4.1). */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

describe('webhook edge cases found by probing', () => {
  it('contract §4.3: an endpoint URL with credentials is refused (fetch never sends one, so every attempt would fail unseen)', async () => {
    const { api } = sandbox();
    const res = await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.free, url: 'http://user:pw@127.0.0.1:9/hooks' });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual({ url: ['must be an absolute http or https URL'] });
  });

  it('contract §4.3: a triggered job.completed is about the job that ended by the clock, even if nobody read it since', async () => {
    const s = sandbox();
    const crawl = await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 2 });
    expect(crawl.status).toBe(201);
    await s.advance(3600);
    const event = await s.trigger('job.completed');
    expect(event.status).toBe(201);
    expect(event.body.data.object).toMatchObject({ id: crawl.body.id, status: 'completed' });
  });

  it('contract §4.1: an own-clock advance that outlives its account (deleted while its webhooks were sent) answers 404', async () => {
    const held = await receiver(() => 'hang');
    // Far beyond any wait here: the held attempt ends when its receiver goes away, not by a timer that
    // a loaded machine could let fire before the request even arrived.
    const s = sandbox({ webhookTimeout: 600_000 });
    const created = await s.api.post('/__admin/accounts').send({ clock: 'frozen' });
    const id = created.body.account.id as string;
    await s.endpoint(held.url, {}, id);
    await s.trigger('inbox.updated', id);
    await held.received(1);
    const advancing = s.api
      .post(`/__admin/accounts/${id}/clock/advance`)
      .send({ seconds: 60 })
      .then((res) => res);
    expect((await s.api.delete(`/__admin/accounts/${id}`)).status).toBe(200);
    await held.close();
    const advanced = await advancing;
    expect(advanced.status).toBe(404);
    expect(advanced.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
  });

  it("contract §4.3: a failed attempt whose retry would fall past the clock's last instant ends the delivery failed", async () => {
    const failing = await receiver(() => 500);
    const s = sandbox();
    // Two seconds before the end of the clock's range: the 5 s retry can never fall due.
    const created = await s.api.post('/__admin/accounts').send({ clock: '9999-12-31T23:59:57Z' });
    expect(created.status).toBe(201);
    const id = created.body.account.id as string;
    await s.endpoint(failing.url, {}, id);
    await s.trigger('inbox.updated', id);
    await failing.received(1);
    await s.api.post(`/__admin/accounts/${id}/clock/advance`).send({ seconds: 0 });
    const [delivery] = await s.deliveries({ account_id: id });
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(delivery!.attempts).toMatchObject([{ status_code: 500, error: 'receiver answered 500' }]);
  });
});
