/**
 * Same seed + same requests = same bytes, per tenant, whatever other tenants do (contract §4.1, §4.3):
 * an account's webhook ids (endpoints, events, deliveries, the samples of triggered events), the
 * secrets drawn from them, the bodies sent and their signatures come from a stream of that account's,
 * so another tenant's endpoints and events, made before, between or not at all, never move them.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

/** Real time stands still, so the signatures (over `webhook-timestamp`) can be compared byte for byte. */
const REAL_NOW = Date.parse('2026-03-01T09:00:00Z');

type Neighbour = 'absent' | 'before' | 'interleaved';

/** Everything tenant A sees of its webhooks, with tenant B's traffic as `neighbour` says. */
async function tenantA(neighbour: Neighbour, ownClock: boolean): Promise<string[]> {
  const s = sandbox({ seed: 'webhook-ids-per-tenant', realTime: () => REAL_NOW });
  const A = ACCOUNTS.free;
  const B = ACCOUNTS.paid;
  // A's first attempt fails, so a retry on A's clock is part of what is compared.
  const forA = await receiver((n) => (n === 0 ? 500 : 204));
  const forB = await receiver();
  const advanceA = (seconds: number) =>
    ownClock ? s.api.post(`/__admin/accounts/${A}/clock/advance`).send({ seconds }) : s.advance(seconds);
  const bTraffic = async () => {
    await s.endpoint(forB.url, {}, B);
    await s.trigger('customer.created', B);
    await s.trigger('inbox.updated', B);
    await s.advance(0);
  };
  const seen: string[] = [];
  if (neighbour === 'before') await bTraffic();
  if (ownClock) expect((await s.api.post(`/__admin/accounts/${A}/clock`).send({})).status).toBe(200);
  seen.push(JSON.stringify(await s.endpoint(forA.url, {}, A)));
  seen.push((await s.trigger('inbox.updated', A)).text);
  await forA.received(1);
  await advanceA(0);
  if (neighbour === 'interleaved') await bTraffic();
  seen.push((await s.trigger('customer.created', A)).text);
  await forA.received(2);
  if (neighbour === 'interleaved') await s.trigger('customer.created', B);
  await advanceA(10);
  await forA.received(3);
  for (const arrival of forA.arrivals) {
    const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = arrival.headers;
    seen.push(JSON.stringify({ id, timestamp, signature, body: arrival.body }));
  }
  seen.push((await s.api.get('/__admin/webhook_deliveries').query({ account_id: A })).text);
  seen.push((await s.api.get('/__admin/webhook_endpoints').query({ account_id: A })).text);
  // Each sandbox has receivers of its own, on ports of their own.
  return seen.map((text) => text.replaceAll(forA.url, '<receiver>'));
}

describe('webhook ids are per tenant: same seed + same requests = same bytes, whatever other tenants do', () => {
  it.each([false, true])(
    'contract §4.3: tenant A (own clock: %s) gets the same ids, bodies and signatures with tenant B absent, before it or interleaved',
    async (ownClock) => {
      const alone = await tenantA('absent', ownClock);
      expect(alone.join('\n')).toMatch(/we_[0-9A-Za-z]{24}/);
      expect(alone.join('\n')).toMatch(/evt_[0-9A-Za-z]{24}/);
      expect(alone.join('\n')).toMatch(/whd_[0-9A-Za-z]{24}/);
      expect(await tenantA('before', ownClock)).toEqual(alone);
      expect(await tenantA('interleaved', ownClock)).toEqual(alone);
    },
  );
});

describe('webhook ids are never given twice while the world lives', () => {
  it('contract §4.3: after an account reset its events get new ids (receivers de-duplicate on webhook-id), the same in every sandbox of the seed', async () => {
    const run = async () => {
      const ok = await receiver();
      const s = sandbox({ seed: 'webhook-ids-reset' });
      await s.endpoint(ok.url);
      const before = await s.deliverOnce(ok);
      const [deliveryBefore] = await s.deliveries({ account_id: ACCOUNTS.free });
      expect((await s.api.post(`/__admin/accounts/${ACCOUNTS.free}/reset`)).status).toBe(200);
      const after = await s.deliverOnce(ok);
      const [deliveryAfter] = await s.deliveries({ account_id: ACCOUNTS.free });
      expect(after.id).not.toBe(before.id);
      expect(deliveryAfter!.id).not.toBe(deliveryBefore!.id);
      expect(ok.arrivals.map((a) => a.headers['webhook-id'])).toEqual([before.id, after.id]);
      return [before.id, after.id, deliveryBefore!.id, deliveryAfter!.id];
    };
    expect(await run()).toEqual(await run());
  });

  it('contract §5.3: an account loaded from a snapshot never gets the id of an endpoint the snapshot holds, even once that endpoint is deleted', async () => {
    const ok = await receiver();
    const origin = sandbox({ seed: 'webhook-ids-snapshot' });
    const made = await origin.api.post('/__admin/accounts').send({});
    const id = made.body.account.id as string;
    const kept = await origin.endpoint(ok.url, {}, id);
    const snapshot = (await origin.api.get(`/__admin/accounts/${id}/snapshot`)).body as unknown;

    const here = sandbox({ seed: 'webhook-ids-snapshot' });
    expect((await here.api.post('/__admin/accounts').send({ snapshot })).status).toBe(201);
    // Same seed, same account: its stream's first endpoint id is the loaded endpoint's.
    const next = await here.endpoint(ok.url, {}, id);
    expect(next.id).not.toBe(kept.id);
    expect((await here.api.delete(`/__admin/webhook_endpoints/${kept.id}`)).status).toBe(200);
    expect((await here.api.post(`/__admin/accounts/${id}/reset`)).status).toBe(200);
    expect((await here.api.delete(`/__admin/webhook_endpoints/${kept.id}`)).status).toBe(200);
    const again = await here.endpoint(ok.url, {}, id);
    expect([kept.id, next.id]).not.toContain(again.id);
  });
});
