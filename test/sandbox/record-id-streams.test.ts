/**
 * The per-account id streams of what requests make (src/sandbox/record-ids.ts): one per account and
 * kind, skipping what is taken or reserved, freed on delete.
 */
import { describe, expect, it } from 'vitest';
import { RecordIdStreams } from '../../src/sandbox/record-ids.js';
import { client, makeApp } from '../support/harness.js';

const none = () => false;

describe('record id streams', () => {
  it('contract §4.1: each kind has its own stream, so drawing one kind never moves another, nor another account', () => {
    const plain = new RecordIdStreams('s', none).of('acct_a');
    const busy = new RecordIdStreams('s', none);
    busy.of('acct_b').next('job');
    busy.of('acct_a').next('key');
    busy.of('acct_a').secret('cc_test_');
    expect(busy.of('acct_a').next('job')).toBe(plain.next('job'));
    expect(busy.of('acct_a').next('key')).not.toBe(busy.of('acct_b').next('key'));
  });

  it('contract §4.1: a value in use (a key id or token anywhere) or reserved by a snapshot is skipped', () => {
    const fresh = new RecordIdStreams('s', none).of('acct_a');
    const [first, second, third] = [fresh.secret('cc_test_'), fresh.secret('cc_test_'), fresh.secret('cc_test_')];
    const streams = new RecordIdStreams('s', (value) => value === first);
    streams.reserve([second]);
    expect(streams.of('acct_a').secret('cc_test_')).toBe(third);
  });

  it('contract §4.1: forget frees the account streams; one made later with its id draws apart, the same way in every sandbox', () => {
    const lives = () => {
      const streams = new RecordIdStreams('s', none);
      const drawn = [streams.of('acct_a').next('job')];
      streams.forget('acct_a');
      drawn.push(streams.of('acct_a').next('job'));
      streams.forget('acct_a');
      drawn.push(streams.of('acct_a').next('job'));
      return drawn;
    };
    const drawn = lives();
    expect(new Set(drawn).size).toBe(3);
    expect(lives()).toEqual(drawn);
  });

  it('contract §4.1: a deleted account’s keys answer 401 from then on, also once an account is made again with its id (it gets other keys)', async () => {
    const app = makeApp({ seed: 'record-ids-delete' });
    const api = client(app);
    const made = await api.post('/__admin/accounts').send({ id: 'acct_again' });
    await api
      .post('/v1/auth/keys')
      .set({ Authorization: `Bearer ${made.body.api_key.token}` })
      .send({ name: 'more' });
    expect((await api.delete('/__admin/accounts/acct_again')).status).toBe(200);
    const again = await api.post('/__admin/accounts').send({ id: 'acct_again' });
    expect(again.status).toBe(201);
    expect(again.body.api_key.id).not.toBe(made.body.api_key.id);
    expect(again.body.api_key.token).not.toBe(made.body.api_key.token);
    const old = await api.get('/v1/auth/keys').set({ Authorization: `Bearer ${made.body.api_key.token}` });
    expect(old.status).toBe(401);
    const fresh = await api.get('/v1/auth/keys').set({ Authorization: `Bearer ${again.body.api_key.token}` });
    expect(fresh.status).toBe(200);
  });
});
