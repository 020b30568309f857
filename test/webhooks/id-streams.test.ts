/** The hub's id streams (src/webhooks/id-streams.ts): per account and kind, restartable, never giving an id in use. */
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { Incarnations } from '../../src/random.js';
import { IdStreams } from '../../src/webhooks/id-streams.js';

describe('webhook id streams', () => {
  it('each account has streams of its own: drawing for one never moves another', () => {
    const alone = new IdStreams('seed', () => false);
    const busy = new IdStreams('seed', () => false);
    for (let i = 0; i < 5; i++) busy.next('acct_b', 'evt');
    busy.next('acct_b', 'we');
    expect([busy.next('acct_a', 'evt'), busy.next('acct_a', 'whd')]).toEqual([alone.next('acct_a', 'evt'), alone.next('acct_a', 'whd')]);
    expect(alone.next('acct_b', 'evt')).not.toBe(new IdStreams('seed', () => false).next('acct_a', 'evt'));
  });

  it('a kind of id never moves another kind: the first event id is the same whether an endpoint was drawn first or not', () => {
    const withEndpoint = new IdStreams('seed', () => false);
    withEndpoint.next('acct_a', 'we');
    expect(withEndpoint.next('acct_a', 'evt')).toBe(new IdStreams('seed', () => false).next('acct_a', 'evt'));
  });

  it('a draw in use or reserved is skipped', () => {
    const inUse = new Set<string>();
    const streams = new IdStreams('seed', (id) => inUse.has(id));
    const drawn = [streams.next('acct_a', 'we'), streams.next('acct_a', 'we'), streams.next('acct_a', 'we')];
    const again = new IdStreams('seed', (id) => inUse.has(id));
    inUse.add(drawn[0]!);
    again.reserve([drawn[1]!]);
    expect(again.next('acct_a', 'we')).toBe(drawn[2]);
  });

  it('an account deleted and made again with its id never draws an id of its earlier life, and its new ids are deterministic', () => {
    const lives = (streams: IdStreams) => {
      const drawn: string[] = [];
      for (let life = 0; life < 3; life++) {
        drawn.push(streams.next('acct_a', 'evt'), streams.next('acct_a', 'whd'), streams.next('acct_a', 'we'));
        streams.forget('acct_a');
      }
      return drawn;
    };
    const one = new IdStreams('seed', () => false);
    const drawn = lives(one);
    expect(new Set(drawn).size).toBe(drawn.length);
    // Another tenant's deletions and re-creations never move this one's ids.
    const busy = new IdStreams('seed', () => false);
    for (let i = 0; i < 4; i++) {
      busy.next('acct_b', 'evt');
      busy.forget('acct_b');
    }
    expect(lives(busy)).toEqual(drawn);
  });

  it('deletion remembers only accounts that drew ids: one that never did keeps nothing', () => {
    const lives = new Incarnations();
    const streams = new IdStreams('seed', () => false, lives);
    for (let i = 0; i < 1000; i++) streams.forget(`acct_${i}`);
    expect(lives.size).toBe(0);
    streams.next('acct_x', 'evt');
    streams.forget('acct_x');
    streams.forget('acct_x');
    expect(lives.size).toBe(1);
    expect(lives.of('acct_x')).toBe(1);
  });

  it('contract §4.3: event and delivery ids are never given twice while the sandbox lives, across a deletion and a snapshot reload', async () => {
    const app = createApp({ clock: '2026-01-15T12:00:00Z' });
    try {
      const c = () => request(app.callback());
      const id = (await c().post('/__admin/accounts').send({})).body.account.id as string;
      const first = (await c().post('/__admin/webhook_endpoints').send({ account_id: id, url: 'http://127.0.0.1:9/hook' })).body
        .id as string;
      const ids = async () => {
        const event = (await c().post('/__admin/events').send({ account_id: id, type: 'customer.created' })).body.id as string;
        const deliveries = (await c().get(`/__admin/webhook_deliveries?account_id=${id}`)).body.data.map(
          (d: { id: string }) => d.id,
        ) as string[];
        return [event, ...deliveries];
      };
      const before = await ids();
      const snapshot = (await c().get(`/__admin/accounts/${id}/snapshot`)).body;
      expect((await c().delete(`/__admin/accounts/${id}`)).status).toBe(200);
      expect((await c().post('/__admin/accounts').send({ snapshot })).status).toBe(201);
      const after = await ids();
      expect(after.filter((x) => before.includes(x))).toEqual([]);
      const second = (await c().post('/__admin/webhook_endpoints').send({ account_id: id, url: 'http://127.0.0.1:9/hook2' })).body
        .id as string;
      expect(second).not.toBe(first);
    } finally {
      app.sandbox.world.close();
    }
  });

  it('ids have the prefix of their kind and the shape snapshots recognise', () => {
    const streams = new IdStreams('seed', () => false);
    expect(streams.next('a', 'we')).toMatch(/^we_[0-9A-Za-z]{24}$/);
    expect(streams.next('a', 'evt')).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(streams.next('a', 'whd')).toMatch(/^whd_[0-9A-Za-z]{24}$/);
  });
});
