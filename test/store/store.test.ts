/** The store: tenancy, prefixed seeded ids, determinism, fixtures validated at load. */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { Collection } from '../../src/store/collection.js';
import { FixtureError, loadFixture, parseFixture } from '../../src/fixture/fixture-file.js';
import { bearer, client, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';

describe('spec §1: multi-tenant, prefixed ids', () => {
  it('gives handlers only the caller account: another account cannot be reached through the scoped store', () => {
    const app = makeApp();
    const free = app.sandbox.world.store.forAccount('acct_free_default')!;
    const paid = app.sandbox.world.store.forAccount('acct_paid_default')!;
    expect(free.collection('api_keys').has('key_paid_default')).toBe(false);
    expect(paid.collection('api_keys').has('key_free_default')).toBe(false);
    expect(free.collection('customers')).not.toBe(paid.collection('customers'));
  });

  it('generates prefixed ids from the seed', () => {
    const app = makeApp();
    const customers = app.sandbox.world.store.forAccount('acct_free_default')!.collection('customers').values();
    expect(customers.length).toBe(8);
    for (const c of customers) expect(c.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
  });
});

describe('determinism: same seed + same requests = same bytes', () => {
  async function script(seed: number): Promise<string[]> {
    const app = createApp({ seed, clock: FROZEN_AT });
    const out: string[] = [];
    const account = await client(app).post('/__admin/accounts').send({ plan: 'paid' });
    out.push(account.text);
    const key = bearer(account.body.api_key.token);
    out.push((await client(app).post('/v1/auth/keys').set(key).send({ name: 'a' })).text);
    out.push((await client(app).get('/v1/auth/keys').set(key)).text);
    out.push((await client(app).get(`/__admin/accounts/${account.body.account.id}`)).text);
    const res = await client(app).get('/v1/status').set(bearer(KEYS.free));
    out.push(JSON.stringify(res.headers['request-id']) + res.headers.ratelimit + res.text);
    return out;
  }

  it('produces identical responses for the same seed and different ones for another seed', async () => {
    const [a, b, c] = await Promise.all([script(7), script(7), script(8)]);
    expect(a).toEqual(b);
    expect(a[0]).not.toEqual(c[0]);
  });

  it('fills the fixture accounts identically on every boot', () => {
    const one = makeApp().sandbox.world.store.forAccount('acct_paid_default')!.snapshot();
    const two = makeApp().sandbox.world.store.forAccount('acct_paid_default')!.snapshot();
    expect(one).toEqual(two);
  });
});

describe('fixtures are data, validated at load', () => {
  const valid = () => ({
    description: 'x',
    accounts: [{ id: 'acct_a', name: 'A', plan: 'free', api_keys: [{ id: 'key_a', token: 'cc_test_aaaaaaaa' }] }],
    template: { credits: { free: 1, paid: 2 }, counts: {} },
  });

  it('accepts the shipped default fixture', () => {
    const fixture = loadFixture('default');
    expect(fixture.accounts.map((a) => a.plan).sort()).toEqual(['free', 'paid']);
  });

  it.each([
    [(f: any) => (f.accounts[0].plan = 'gold'), '/accounts/0/plan', 'must be one of free, paid'],
    [(f: any) => delete f.template, '/', "missing field 'template'"],
    [(f: any) => (f.accounts[0].colour = 'red'), '/accounts/0', "unknown field 'colour'"],
    [(f: any) => (f.accounts[0].id = '123'), '/accounts/0/id', 'must match pattern'],
    [
      (f: any) => (f.accounts[0].api_keys[0].expires_at = 'tomorrow'),
      '/accounts/0/api_keys/0/expires_at',
      'must be an ISO 8601 date-time with a time zone',
    ],
    [(f: any) => f.accounts.push({ ...f.accounts[0], api_keys: [] }), '/accounts/1/id', "duplicate account id 'acct_a'"],
    [
      (f: any) => f.accounts[0].api_keys.push({ id: 'key_b', token: 'cc_test_aaaaaaaa' }),
      '/accounts/0/api_keys/1/token',
      'duplicate token',
    ],
  ])('refuses a bad fixture naming the file and the path (%#)', (mutate, pointer, detail) => {
    const fixture = valid();
    mutate(fixture);
    let error: unknown;
    try {
      parseFixture(fixture, 'fixtures/bad.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as FixtureError).message).toContain('fixtures/bad.json');
    expect((error as FixtureError).pointer).toBe(pointer);
    expect((error as FixtureError).message).toContain(detail);
  });

  it('stops createApp with the fixture error rather than starting half-configured', () => {
    expect(() => createApp({ fixtures: '/nonexistent/dir/f.json' })).toThrow(FixtureError);
  });
});

describe('Collection: ordered, newest-first pages', () => {
  it('serves pages newest first, resumes after a cursor and skips deleted records', () => {
    const c = new Collection<{ id: string; n: number }>();
    for (let n = 0; n < 10; n++) c.insert({ id: `x_${n}`, n });
    c.delete('x_7');
    expect(c.page({ limit: 3 })!.data.map((r) => r.n)).toEqual([9, 8, 6]);
    expect(c.page({ limit: 3, startingAfter: 'x_6' })!.data.map((r) => r.n)).toEqual([5, 4, 3]);
    expect(c.page({ limit: 3, startingAfter: 'x_2' })).toEqual({ data: [c.get('x_1'), c.get('x_0')], hasMore: false });
    expect(c.page({ limit: 3, startingAfter: 'x_7' })!.data.map((r) => r.n)).toEqual([6, 5, 4]);
    expect(c.page({ limit: 3, startingAfter: 'x_never' })).toBeUndefined();
    expect(c.page({ limit: 2, filter: (r) => r.n % 2 === 0 })!.data.map((r) => r.n)).toEqual([8, 6]);
  });

  it('refuses duplicate ids', () => {
    const c = new Collection<{ id: string }>();
    c.insert({ id: 'a_1' });
    expect(() => c.insert({ id: 'a_1' })).toThrow(/duplicate/);
  });
});
