/**
 * The lives of deleted account ids (src/random.ts `Incarnations`): an account made again with the id
 * of a deleted one draws from streams seeded apart (contract §4.1: a deleted account's tokens never
 * authenticate again), within `deletedIdsBudget` bytes however many accounts a client creates and
 * deletes. Past the budget the id deleted longest ago, sandbox-wide, is forgotten: made again, it
 * draws its first life's ids and tokens again (docs/parallel-tenants.md "Ids" says so).
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { resolveOptions } from '../../src/config/options.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { DEFAULT_DELETED_IDS_BUDGET, Incarnations, rememberedIdBytes } from '../../src/random.js';
import { deleteAccount } from '../../src/sandbox/lifecycle.js';
import { RecordIdStreams } from '../../src/sandbox/record-ids.js';
import { IdStreams } from '../../src/webhooks/id-streams.js';

const none = () => false;

/** Tenant A's `acct_mine`: made, deleted, made again; `churn` ids of other tenants are made and deleted between. */
function lifeOf(churn: number, lives: Incarnations) {
  const streams = new RecordIdStreams('s', none, lives);
  const first = streams.of('acct_mine').next('job');
  streams.forget('acct_mine');
  for (let i = 0; i < churn; i++) {
    streams.of(`acct_other${i}`).next('job');
    streams.forget(`acct_other${i}`);
  }
  return { first, again: streams.of('acct_mine').next('job') };
}

describe('the lives of deleted account ids stay within deletedIdsBudget', () => {
  it('weighs each id by its characters plus a fixed overhead, and forgets the one whose life ended longest ago first', () => {
    const budget = rememberedIdBytes('a') * 3;
    const lives = new Incarnations(budget);
    for (const id of ['a', 'b', 'c', 'a', 'd']) lives.ended(id, lives.of(id));
    // 'a' ended again after 'b': 'b' is the oldest and goes first.
    expect(lives.size).toBe(3);
    expect(lives.bytes).toBe(budget);
    expect([lives.of('a'), lives.of('b'), lives.of('c'), lives.of('d')]).toEqual([2, 0, 1, 1]);
    // A longer id weighs more: it pushes out as many as its bytes need.
    lives.ended('a_much_longer_id', 0);
    expect(lives.bytes).toBeLessThanOrEqual(budget);
    expect(lives.of('a_much_longer_id')).toBe(1);
    expect(lives.of('c')).toBe(0);
  });

  it('a deletion counts once, however many families of streams drew in the life that ended', () => {
    const lives = new Incarnations();
    const records = new RecordIdStreams('s', none, lives);
    const webhooks = new IdStreams('s', none, lives);
    records.of('acct_both').secret('cc_test_');
    webhooks.next('acct_both', 'evt');
    records.forget('acct_both');
    webhooks.forget('acct_both');
    expect(lives.of('acct_both')).toBe(1);
    expect(lives.size).toBe(1);
    expect(lives.bytes).toBe(rememberedIdBytes('acct_both'));
  });

  it('contract §4.1: creating and deleting accounts in a loop keeps the remembered ids within the budget; a re-created recent id still draws apart', () => {
    const budget = rememberedIdBytes('acct_loop00000') * 500;
    const lives = new Incarnations(budget);
    const records = new RecordIdStreams('s', none, lives);
    const webhooks = new IdStreams('s', none, lives);
    const n = 2_000;
    const first: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `acct_loop${String(i).padStart(5, '0')}`;
      const token = records.of(id).secret('cc_test_');
      const event = webhooks.next(id, 'evt');
      if (i >= n - 3) first.push(token, event);
      records.forget(id);
      webhooks.forget(id);
    }
    expect(lives.size).toBe(500);
    expect(lives.bytes).toBe(budget);
    const again: string[] = [];
    for (let i = n - 3; i < n; i++) {
      const id = `acct_loop${String(i).padStart(5, '0')}`;
      again.push(records.of(id).secret('cc_test_'), webhooks.next(id, 'evt'));
    }
    expect(again.filter((value) => first.includes(value))).toEqual([]);
  });

  it('same seed + same requests = same ids per tenant while the deleted ids fit the budget: other tenants’ deletions within it never move a tenant’s lives', () => {
    const budget = rememberedIdBytes('acct_other000') * 200;
    const quiet = lifeOf(0, new Incarnations(budget));
    const busy = lifeOf(150, new Incarnations(budget));
    expect(busy).toEqual(quiet);
    expect(busy.again).not.toBe(busy.first);
    expect(lifeOf(0, new Incarnations())).toEqual(quiet);
  });

  it('past the budget (documented exception): an id forgotten draws its first life’s ids again, and which is forgotten depends on other tenants’ deletions', () => {
    const budget = rememberedIdBytes('acct_other000') * 3;
    const within = lifeOf(2, new Incarnations(budget));
    const past = lifeOf(10, new Incarnations(budget));
    // acct_mine ended longest ago: forgotten, its next life is a first life again.
    expect(past.again).toBe(past.first);
    // The same requests of tenant A, other tenants' deletions aside, gave other ids.
    expect(within.again).not.toBe(within.first);
    expect(past.again).not.toBe(within.again);
  });

  it('contract §4.1 within the budget, and its documented exception past it: the first life’s token is 401 until the id is forgotten, then authenticates again', async () => {
    const run = async (churn: number) => {
      const app = createApp({ clock: '2026-01-15T12:00:00Z', deletedIdsBudget: rememberedIdBytes('acct_other000') * 3 });
      const http = request(app.callback());
      const first = await http.post('/__admin/accounts').send({ id: 'acct_mine' });
      expect((await http.delete('/__admin/accounts/acct_mine')).status).toBe(200);
      const world = app.sandbox.world;
      for (let i = 0; i < churn; i++) {
        const id = `acct_other${i}`;
        const account = world.createAccount({ id, plan: 'free', firstKey: { name: 'Default' } });
        world.createFirstApiKey(account, { name: 'Default' });
        deleteAccount(world, id);
      }
      const again = await http.post('/__admin/accounts').send({ id: 'acct_mine' });
      expect(again.status).toBe(201);
      const oldToken = await http.get('/v1/status').set('Authorization', `Bearer ${first.body.api_key.token}`);
      return { sameToken: again.body.api_key.token === first.body.api_key.token, oldTokenStatus: oldToken.status };
    };
    expect(await run(2)).toEqual({ sameToken: false, oldTokenStatus: 401 });
    expect(await run(10)).toEqual({ sameToken: true, oldTokenStatus: 200 });
  });

  it('contract §1: deletedIdsBudget takes bytes or a size with a unit (default 16 MiB); a bad one is refused naming the setting', () => {
    expect(DEFAULT_DELETED_IDS_BUDGET).toBe(16 * 1024 ** 2);
    expect(resolveOptions({}).deletedIdsBudget).toBe(16 * 1024 ** 2);
    expect(resolveOptions({ deletedIdsBudget: '1MiB' }).deletedIdsBudget).toBe(1024 ** 2);
    expect(parseCliSettings(['--deleted-ids-budget', '2MiB'], { MOCK_DELETED_IDS_BUDGET: '7' }).options).toMatchObject({
      deletedIdsBudget: 2 * 1024 ** 2,
    });
    expect(parseCliSettings([], { MOCK_DELETED_IDS_BUDGET: '4096' }).options).toMatchObject({ deletedIdsBudget: 4096 });
    expect(() => parseCliSettings(['--deleted-ids-budget', 'lots'], {})).toThrow(/^--deleted-ids-budget: expected a byte size/);
    expect(() => resolveOptions({ deletedIdsBudget: '12 parsecs' })).toThrow(ConfigError);
  });
});
