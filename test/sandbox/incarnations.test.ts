/**
 * The lives of deleted account ids (src/random.ts `Incarnations`): an account made again with the id
 * of a deleted one draws from streams seeded apart (contract §4.1: a deleted account's tokens never
 * authenticate again), and what is remembered for it is bounded however many accounts a client
 * creates and deletes.
 */
import { describe, expect, it } from 'vitest';
import { Incarnations, LIVES_REMEMBERED } from '../../src/random.js';
import { RecordIdStreams } from '../../src/sandbox/record-ids.js';
import { IdStreams } from '../../src/webhooks/id-streams.js';

const none = () => false;

describe('the lives of deleted account ids stay bounded', () => {
  it('keeps at most its limit of ids, forgetting the one that ended longest ago first', () => {
    const lives = new Incarnations(3);
    for (const id of ['a', 'b', 'c', 'a', 'd']) lives.ended(id);
    // 'a' ended again after 'b': 'b' is the oldest and goes first.
    expect(lives.size).toBe(3);
    expect([lives.of('a'), lives.of('b'), lives.of('c'), lives.of('d')]).toEqual([2, 0, 1, 1]);
  });

  it('contract §4.1: creating and deleting accounts in a loop keeps at most LIVES_REMEMBERED ids; a re-created recent id still draws apart', () => {
    const records = new RecordIdStreams('s', none);
    const webhooks = new IdStreams('s', none);
    const n = LIVES_REMEMBERED + 2_500;
    const first: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `acct_loop${i}`;
      const token = records.of(id).secret('cc_test_');
      const event = webhooks.next(id, 'evt');
      if (i >= n - 3) first.push(token, event);
      records.forget(id);
      webhooks.forget(id);
    }
    expect(records.remembered).toBe(LIVES_REMEMBERED);
    expect(webhooks.remembered).toBe(LIVES_REMEMBERED);
    const again: string[] = [];
    for (let i = n - 3; i < n; i++) again.push(records.of(`acct_loop${i}`).secret('cc_test_'), webhooks.next(`acct_loop${i}`, 'evt'));
    expect(again.filter((value) => first.includes(value))).toEqual([]);
  });

  it('same seed + same requests = same ids per tenant: other tenants deleting accounts past the limit never move a tenant’s lives', () => {
    const lifeOf = (churn: number) => {
      const streams = new RecordIdStreams('s', none);
      streams.of('acct_mine').next('job');
      streams.forget('acct_mine');
      for (let i = 0; i < churn; i++) {
        streams.of(`acct_other${i}`);
        streams.forget(`acct_other${i}`);
      }
      return [streams.of('acct_mine').next('job'), streams.of('acct_fresh').next('job')];
    };
    expect(lifeOf(100)).toEqual(lifeOf(0));
    expect(lifeOf(0)[1]).toBe(new RecordIdStreams('s', none).of('acct_fresh').next('job'));
  });
});
