/**
 * Contract §4.3: the delivery log is bounded in bytes, per account and for the whole sandbox, beside
 * its count; the oldest go first, and a pending delivery that goes is never sent. Its listings answer
 * a bounded size whatever their `limit`.
 */
import { describe, expect, it } from 'vitest';
import { parseCliSettings } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { ACCOUNTS, KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

const INBOX = { free: 'inbox_free_support', paid: 'inbox_paid_support' } as const;

/** A PATCH whose `inbox.updated` payload is about `bytes` long: its metadata holds that many `x`. */
function patchInbox(s: ReturnType<typeof sandbox>, bytes: number, tag: string, plan: 'free' | 'paid' = 'free') {
  return s.api
    .patch(`/v1/email/inboxes/${INBOX[plan]}`)
    .set(bearer(KEYS[plan]))
    .send({ display_name: tag, metadata: { blob: 'x'.repeat(bytes) } })
    .expect(200);
}

const tags = (list: Array<{ event: object }>) =>
  list.map((d) => (d.event as { data: { object: { display_name: string } } }).data.object.display_name);

describe('contract §4.3: the webhook delivery log is bounded in bytes', () => {
  it('contract §4.3: past its byte budget an account loses its oldest deliveries first, and a pending one that went is never sent', async () => {
    const failing = await receiver(() => 500);
    const s = sandbox({ deliveryLogBudget: '30KiB' });
    await s.endpoint(failing.url, { events: ['inbox.updated'] });
    for (const tag of ['a', 'b', 'c', 'd', 'e']) await patchInbox(s, 10_000, tag);
    await failing.received(5);
    await s.advance(0);
    const kept = await s.deliveries({ account_id: ACCOUNTS.free });
    // 10 KB and a 1 KiB record each: two fit in 30 KiB, the newest two.
    expect(tags(kept)).toEqual(['e', 'd']);
    expect(kept.every((d) => d.status === 'pending')).toBe(true);
    // The retries fall due: only the kept ones are attempted again.
    await s.advance(10);
    await failing.received(7);
    const retried = failing.arrivals.slice(5).map((a) => (a.json.data.object as { display_name: string }).display_name);
    expect(retried.sort()).toEqual(['d', 'e']);
  });

  it('contract §4.3: the deliveries of one event to several endpoints share its payload, counted once against the budget', async () => {
    const ok = await receiver();
    const s = sandbox({ deliveryLogBudget: '30KiB' });
    for (let i = 0; i < 3; i++) await s.endpoint(ok.url, { events: ['inbox.updated'] });
    await patchInbox(s, 10_000, 'shared');
    await ok.received(3);
    await s.advance(0);
    // Three copies of 10 KB and their records would be 34 KB: over the budget unless the payload is counted once.
    expect(tags(await s.deliveries())).toEqual(['shared', 'shared', 'shared']);
    await patchInbox(s, 10_000, 'next');
    await ok.received(6);
    await s.advance(0);
    expect(tags(await s.deliveries())).toEqual(['next', 'next', 'next', 'shared', 'shared', 'shared']);
  });

  it("contract §4.3: over the sandbox's budget the heaviest account gives up its oldest first, whoever adds", async () => {
    const ok = await receiver();
    const s = sandbox({ deliveryLogSandboxBudget: '30KiB' });
    await s.endpoint(ok.url, { events: ['inbox.updated'] }, ACCOUNTS.free);
    await s.endpoint(ok.url, { events: ['inbox.updated'] }, ACCOUNTS.paid);
    await patchInbox(s, 10_000, 'free-1');
    await patchInbox(s, 10_000, 'free-2');
    await patchInbox(s, 10_000, 'paid-1', 'paid');
    await ok.received(3);
    await s.advance(0);
    // The free account was the heaviest: its oldest went.
    expect(tags(await s.deliveries())).toEqual(['paid-1', 'free-2']);
    await patchInbox(s, 10_000, 'paid-2', 'paid');
    await ok.received(4);
    await s.advance(0);
    expect(tags(await s.deliveries())).toEqual(['paid-2', 'free-2']);
  });

  it("contract §4.3: a heavy tenant flooding past the sandbox's budget leaves a light tenant's deliveries listed", async () => {
    const ok = await receiver();
    const s = sandbox({ deliveryLogSandboxBudget: '64KiB' });
    await s.endpoint(ok.url, { events: ['inbox.updated'] }, ACCOUNTS.free);
    await s.endpoint(ok.url, { events: ['inbox.updated'] }, ACCOUNTS.paid);
    await patchInbox(s, 100, 'light-1', 'paid');
    for (let i = 0; i < 10; i++) await patchInbox(s, 10_000, `heavy-${i}`);
    // As large as a heavy one: the heavy flood left less room than that, so the sandbox is passed.
    await patchInbox(s, 10_100, 'light-2', 'paid');
    await ok.received(12);
    await s.advance(0);
    expect(tags(await s.deliveries({ account_id: ACCOUNTS.paid }))).toEqual(['light-2', 'light-1']);
    const heavy = tags(await s.deliveries({ account_id: ACCOUNTS.free }));
    expect(heavy[0]).toBe('heavy-9');
    expect(heavy.length).toBeLessThan(10);
  });

  it('contract §4.3: the newest delivery of an account is kept even when it alone is over the budget', async () => {
    const ok = await receiver();
    const s = sandbox({ deliveryLogBudget: 0 });
    await s.endpoint(ok.url, { events: ['inbox.updated'] });
    await patchInbox(s, 10_000, 'one');
    await patchInbox(s, 10_000, 'two');
    await ok.received(2);
    await s.advance(0);
    const kept = await s.deliveries();
    expect(tags(kept)).toEqual(['two']);
    expect(kept[0]!.status).toBe('succeeded');
  });

  it.each([
    ['deliveryLogBudget', 'delivery-log-budget'],
    ['deliveryLogSandboxBudget', 'delivery-log-sandbox-budget'],
    ['webhookResponseLimit', 'webhook-response-limit'],
  ])('contract §1: %s takes bytes or a size with a unit; a bad one is refused naming the setting', (option, flag) => {
    const env = `MOCK_${flag.toUpperCase().replaceAll('-', '_')}`;
    expect(parseCliSettings([`--${flag}`, '2MiB'], { [env]: '7' }).options).toMatchObject({ [option]: 2 * 1024 ** 2 });
    expect(parseCliSettings([], { [env]: '4096' }).options).toMatchObject({ [option]: 4096 });
    expect(() => parseCliSettings([`--${flag}`, 'lots'], {})).toThrow(new RegExp(`^--${flag}: expected a byte size`));
    expect(() => parseCliSettings([], { [env]: '-1' })).toThrow(new RegExp(`^${env}: expected a byte size`));
    expect(() => sandbox({ [option]: '12 parsecs' })).toThrow(ConfigError);
  });
});

describe('contract §4.3: the delivery listings answer a bounded size whatever their limit', () => {
  it('contract §4.3: a listing shows a large event truncated, with a marker and its full length; the delivery alone shows it whole', async () => {
    const ok = await receiver();
    const s = sandbox();
    await s.endpoint(ok.url, { events: ['inbox.updated'] });
    await patchInbox(s, 200_000, 'large');
    await s.trigger('inbox.updated');
    await ok.received(2);
    await s.advance(0);
    const list = await s.api.get('/__admin/webhook_deliveries').query({ limit: 1000 });
    expect(list.status).toBe(200);
    expect(list.text.length).toBeLessThan(10_000);
    const [small, large] = list.body.data;
    expect(small.event.data.object).toBeTypeOf('object');
    expect(small.payload_bytes).toBe(JSON.stringify(small.event).length);
    expect(large.payload_bytes).toBeGreaterThan(200_000);
    expect(large.event).toMatchObject({ type: 'inbox.updated', account_id: ACCOUNTS.free });
    expect(large.event.data).toMatchObject({ truncated: true, payload_bytes: large.payload_bytes });
    expect(large.event.data.preview).toBeTypeOf('string');
    expect(large.event.data.preview.length).toBeLessThan(20_000);
    expect(ok.arrivals[0]!.body.startsWith(large.event.data.preview)).toBe(true);
    const whole = await s.api.get(`/__admin/webhook_deliveries/${large.id}`);
    expect(whole.status).toBe(200);
    expect(JSON.stringify(whole.body.event)).toBe(ok.arrivals[0]!.body);
  });

  it('contract §4.3: a page of deliveries stops at its byte cap and says has_more', async () => {
    const s = sandbox({ rateLimit: 'off' });
    // 60 events of ~15 KB (shown whole) to 10 endpoints: 600 deliveries, 9 MB if listed together.
    // Nothing listens on port 1: each attempt fails at once, and the retries wait on the frozen clock.
    for (let i = 0; i < 10; i++) await s.endpoint('http://127.0.0.1:1/hooks', { events: ['inbox.updated'] });
    for (let i = 0; i < 60; i++) await patchInbox(s, 15_000, `n${i}`);
    await s.advance(0);
    const list = await s.api.get('/__admin/webhook_deliveries').query({ limit: 1000 });
    expect(list.status).toBe(200);
    expect(list.text.length).toBeLessThanOrEqual(8 * 1024 ** 2);
    expect(list.body.has_more).toBe(true);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.length).toBeLessThan(600);
  });
});
