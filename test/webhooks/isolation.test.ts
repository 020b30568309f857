import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.js';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

describe('deliveries of one account never wait on another (contract §4.3, §4.1)', () => {
  it("account A's receiver holds the socket; B's request and B's delivery still go through; A's attempt then fails", async () => {
    const silent = await receiver(() => 'hang');
    const healthy = await receiver();
    // Far beyond any wait of this test: A's attempt ends when its receiver goes away, not by a timer
    // racing a loaded machine (a short timeout could fire before the held request even arrived).
    const s = sandbox({ webhookTimeout: 600_000 });
    await s.endpoint(silent.url, {}, ACCOUNTS.free);
    await s.endpoint(healthy.url, {}, ACCOUNTS.paid);
    await s.trigger('inbox.updated', ACCOUNTS.free);
    await silent.received(1);
    // A's attempt is in flight and unanswered: B's request and B's delivery go through.
    expect((await s.api.get('/v1/auth/keys').set(bearer(KEYS.paid))).status).toBe(200);
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    await healthy.received(1);
    // B's own clock call waits for B's attempts only (a sandbox clock advance would wait for A's too).
    await s.api.post(`/__admin/accounts/${ACCOUNTS.paid}/clock/advance`).send({ seconds: 0 });
    expect(await s.deliveries({ account_id: ACCOUNTS.paid })).toMatchObject([{ status: 'succeeded' }]);
    expect((await s.deliveries({ account_id: ACCOUNTS.free }))[0]!.attempts).toEqual([]);
    // A's receiver goes away with the socket still held: a failed attempt, a retry scheduled.
    await silent.close();
    await s.api.post(`/__admin/accounts/${ACCOUNTS.free}/clock/advance`).send({ seconds: 0 });
    const [a] = await s.deliveries({ account_id: ACCOUNTS.free });
    expect(a).toMatchObject({ status: 'pending', attempts: [{ status_code: null, error: expect.any(String) }] });
  });

  it('contract §4.3: no answer within the timeout is a failed attempt (a server that accepts and never reads)', async () => {
    const sockets: Socket[] = [];
    const mute = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const s = sandbox({ webhookTimeout: 200 });
      await s.endpoint(`http://127.0.0.1:${(mute.address() as AddressInfo).port}/hooks`, {}, ACCOUNTS.free);
      await s.trigger('inbox.updated', ACCOUNTS.free);
      // Each advance by 0 waits for the attempts under way; loop until the attempt is on record.
      let attempts: Array<{ status_code: number | null; error: string | null }> = [];
      while (attempts.length === 0) {
        await s.advance(0);
        attempts = (await s.deliveries({ account_id: ACCOUNTS.free }))[0]!.attempts;
      }
      expect(attempts).toMatchObject([{ status_code: null, error: 'no answer within 200 ms' }]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });

  it("contract §4.1: an account's own clock advance delivers its due webhooks, and no other account's", async () => {
    const hooks = await receiver(() => 500);
    const s = sandbox();
    await s.endpoint(hooks.url, {}, ACCOUNTS.free);
    await s.endpoint(hooks.url, {}, ACCOUNTS.paid);
    await s.trigger('inbox.updated', ACCOUNTS.free);
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    await hooks.received(2);
    await s.advance(0);
    await s.api.post(`/__admin/accounts/${ACCOUNTS.free}/clock/advance`).send({ seconds: 5 });
    expect(hooks.arrivals.filter((a) => a.json.account_id === ACCOUNTS.free)).toHaveLength(2);
    expect(hooks.arrivals.filter((a) => a.json.account_id === ACCOUNTS.paid)).toHaveLength(1);
    // The paid account still shares the sandbox clock, which has not moved.
    expect(await s.deliveries({ account_id: ACCOUNTS.paid })).toMatchObject([{ next_attempt_at: '2026-01-15T12:00:05Z' }]);
  });

  it('contract §4.3: on a running clock a job end is sent by the timer, without a clock call', async () => {
    const hooks = await receiver();
    const s = sandbox({ clock: 'running' });
    await s.endpoint(hooks.url, { events: ['job.completed'] });
    const crawl = await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    const [arrival] = await hooks.received(1);
    expect(arrival!.json.data.object).toMatchObject({ id: crawl.body.id, status: 'completed' });
  });

  it('contract §4.3: on a running clock a due retry is sent by the timer, without a clock call', async () => {
    const hooks = await receiver((n) => (n === 0 ? 500 : 204));
    const s = sandbox({ clock: 'running' });
    await s.endpoint(hooks.url);
    await s.trigger('inbox.updated');
    await hooks.received(1);
    // The failed attempt is on record once a clock call by 0 s answers; its retry is due 5 s later.
    await s.advance(0);
    const [delivery] = await s.deliveries();
    // Brought to a second before the retry is due (it stays running; at that instant nothing more is
    // due, so the call sends nothing), so the test does not sit out the 5 s: the timer sends the retry.
    await s.api.post('/__admin/clock').send({ now: new Date(Date.parse(delivery!.next_attempt_at!) - 1000).toISOString() });
    const arrivals = await hooks.received(2);
    expect(arrivals[1]!.headers['webhook-id']).toBe(arrivals[0]!.headers['webhook-id']);
  });
});

describe('reset, deletion and the clock going back (contract §4.3, §4.1)', () => {
  it('contract §4.3: a reset mid-delivery aborts the attempt, and nothing of the old world reaches the new one', async () => {
    const hooks = await receiver(() => 'hang');
    const s = sandbox();
    await s.endpoint(hooks.url);
    await s.trigger('inbox.updated');
    await hooks.received(1);
    const old = s.app.sandbox.world;
    expect((await s.api.post('/__admin/reset')).status).toBe(200);
    await s.advance(86_400);
    expect(await s.deliveries()).toEqual([]);
    expect((await s.api.get('/__admin/webhook_endpoints')).body.data).toEqual([]);
    // The old world's delivery was aborted and never retried.
    expect(old.webhooks.deliveries({ limit: 10 }).data[0]!.attempts).toEqual([]);
    expect(hooks.arrivals).toHaveLength(1);
  });

  it('contract §4.1: deleting an account drops its endpoints and pending deliveries', async () => {
    const hooks = await receiver(() => 500);
    const s = sandbox();
    const created = await s.api.post('/__admin/accounts').send({});
    const id = created.body.account.id as string;
    const endpoint = await s.endpoint(hooks.url, {}, id);
    await s.deliverOnce(hooks, 'inbox.updated', id);
    await s.api.delete(`/__admin/accounts/${id}`);
    await s.advance(86_400);
    expect(hooks.arrivals).toHaveLength(1);
    expect((await s.api.get(`/__admin/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    expect(await s.deliveries()).toEqual([]);
  });

  it('contract §4.1: an account reset drops its deliveries and keeps its endpoints', async () => {
    const hooks = await receiver(() => 500);
    const s = sandbox();
    const endpoint = await s.endpoint(hooks.url);
    await s.deliverOnce(hooks);
    await s.api.post(`/__admin/accounts/${ACCOUNTS.free}/reset`);
    await s.advance(86_400);
    expect(hooks.arrivals).toHaveLength(1);
    expect(await s.deliveries({ account_id: ACCOUNTS.free })).toEqual([]);
    expect((await s.api.get(`/__admin/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });

  it('contract §4.3: setting the clock back never sends an event again', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url);
    await s.api.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    await s.advance(600);
    expect(hooks.arrivals.map((a) => a.json.type)).toEqual(['job.completed']);
    await s.api.post('/__admin/clock').send({ now: '2026-01-15T11:00:00Z' });
    await s.advance(7200);
    expect(hooks.arrivals).toHaveLength(1);
  });

  it('pending deliveries under a frozen clock are bounded per account, the oldest dropped', async () => {
    // Nothing listens on this endpoint: every attempt fails at once and stays pending for its retry.
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const s = sandbox();
    await s.endpoint(url);
    const account = s.app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    for (let i = 0; i < 1100; i++) s.app.sandbox.world.webhooks.trigger(account, 'inbox.updated');
    await s.advance(0);
    const page = (await s.api.get('/__admin/webhook_deliveries').query({ limit: 1000 })).body;
    expect(page.data).toHaveLength(1000);
    expect(page.has_more).toBe(false);
    expect(page.data.every((d: { status: string }) => d.status === 'pending')).toBe(true);
  });

  it('a delivery dropped from the log while its batch is being sent is never sent', async () => {
    const s = sandbox();
    const account = s.app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const flood = () => {
      for (let i = 0; i < 1000; i++) s.app.sandbox.world.webhooks.trigger(account, 'discount.deleted');
    };
    // The 2nd arrival floods the log while the 3rd delivery waits in the batch being sent: the
    // 1,000 newer deliveries (to an endpoint nobody listens on) push the three first ones out.
    const hooks = await receiver((n) => {
      if (n === 1) flood();
      return 204;
    });
    const closed = await startReceiver();
    const nobody = closed.url;
    await closed.close();
    await s.endpoint(hooks.url, { events: ['inbox.updated'] });
    await s.endpoint(nobody, { events: ['discount.deleted'] });
    for (let i = 0; i < 3; i++) s.app.sandbox.world.webhooks.trigger(account, 'inbox.updated');
    await hooks.received(2);
    await s.advance(0);
    expect(hooks.arrivals).toHaveLength(2);
  });
});
