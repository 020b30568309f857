/** The hub's id streams (src/webhooks/id-streams.ts): per account and kind, restartable, never giving an id in use. */
import { describe, expect, it } from 'vitest';
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

  it('a draw in use or reserved is skipped; a forgotten account starts over', () => {
    const inUse = new Set<string>();
    const streams = new IdStreams('seed', (id) => inUse.has(id));
    const drawn = [streams.next('acct_a', 'we'), streams.next('acct_a', 'we'), streams.next('acct_a', 'we')];
    streams.forget('acct_a');
    expect(streams.next('acct_a', 'we')).toBe(drawn[0]);
    streams.forget('acct_a');
    inUse.add(drawn[0]!);
    streams.reserve([drawn[1]!]);
    expect(streams.next('acct_a', 'we')).toBe(drawn[2]);
  });

  it('ids have the prefix of their kind and the shape snapshots recognise', () => {
    const streams = new IdStreams('seed', () => false);
    expect(streams.next('a', 'we')).toMatch(/^we_[0-9A-Za-z]{24}$/);
    expect(streams.next('a', 'evt')).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(streams.next('a', 'whd')).toMatch(/^whd_[0-9A-Za-z]{24}$/);
  });
});
