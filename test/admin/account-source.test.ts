/**
 * Contract §3.2: `POST /__admin/accounts` takes its records from the sandbox's template, another
 * fixture (a name, or a path to a file inside the working directory), or an inline `template` and
 * `pinned` in the shapes of a fixture file, validated by the same schema (422 naming the path).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { PinnedRecords } from '../../src/index.js';
import { bearer, client, expectError, makeApp, startServer } from '../support/harness.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-admin-fixture-')));
const work = path.join(root, 'project');
mkdirSync(path.join(work, 'test'), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const template = { credits: { free: 7, paid: 70 }, counts: { customers: 3, experiences: 2 } };
const fixture = (counts: Record<string, number>) => ({
  description: 'Project fixture',
  accounts: [],
  template: { credits: { free: 5, paid: 50 }, counts },
});
writeFileSync(path.join(work, 'test', 'small.json'), JSON.stringify(fixture({ customers: 2 })));
writeFileSync(path.join(work, 'test', 'broken.json'), JSON.stringify({ ...fixture({ customers: -1 }) }));
writeFileSync(path.join(root, 'outside.json'), JSON.stringify(fixture({ customers: 1 })));
symlinkSync(path.join(root, 'outside.json'), path.join(work, 'test', 'link.json'));
writeFileSync(path.join(work, 'test', 'secrets.json'), 'NPM_TOKEN=npm_supersecret\n');
writeFileSync(path.join(work, '.env.probe'), 'NPM_TOKEN=npm_supersecret\n');

/** The server runs in `work`, as a test runner started in a project folder would. */
const inWork = () => vi.spyOn(process, 'cwd').mockReturnValue(work);

// The shipped scenario catalog is read once per process and names its files relative to the working
// directory: read it before any test here fakes that directory, so later files of this worker (which
// share the process) see the paths they expect.
makeApp();

async function create(body: object) {
  return client(makeApp())
    .post('/__admin/accounts')
    .send(body as Record<string, unknown>);
}

describe('contract §3.2: an account from a fixture path', () => {
  it('takes the template of a fixture file named by a path relative to the working directory', async () => {
    inWork();
    const app = makeApp();
    const res = await client(app).post('/__admin/accounts').send({ fixture: 'test/small.json', plan: 'paid' });
    expect(res.status).toBe(201);
    expect(res.body.account.credits).toEqual({ balance: 50, used: 0 });
    const state = (await client(app).get(`/__admin/accounts/${res.body.account.id}`)).body.state;
    expect(state.customers).toHaveLength(2);
    // The same path as an absolute one inside the directory, and a name as before.
    expect((await create({ fixture: path.join(work, 'test', 'small.json') })).status).toBe(201);
    expect((await create({ fixture: 'default' })).status).toBe(201);
  });

  it.each([
    ['../outside.json', "must be a path inside the working directory: '../outside.json'"],
    ['test/../../outside.json', "must be a path inside the working directory: 'test/../../outside.json'"],
    ['test/link.json', "must be a path inside the working directory: 'test/link.json'"],
    ['test/missing.json', "no such fixture: 'test/missing.json'"],
    ['My Fixture', "not a fixture name (^[a-z0-9][a-z0-9_-]{0,63}$) nor a path to a .json file: 'My Fixture'"],
    ['test/', "no such fixture: 'test/'"],
    ['test/broken.json', "not a valid fixture: 'test/broken.json' at /template/counts/customers: must be >= 0"],
  ])('refuses %s with 422 naming fixture', async (given, message) => {
    inWork();
    expectError(await create({ fixture: given }), 'validation_failed', { api: false, param: 'fixture', errors: { fixture: [message] } });
  });
});

describe('a fixture path never reads a file back to the caller', () => {
  it.each(['test/secrets.json', './.env.probe'])('refuses %s without quoting a byte of it', async (given) => {
    inWork();
    const res = await create({ fixture: given });
    expect(res.status).toBe(422);
    expect(res.body.error.param).toBe('fixture');
    expect(res.text).not.toContain('supersecret');
    expect(res.text).not.toContain('NPM_TOKEN');
  });
});

describe('contract §3.2: an account from an inline template and pinned records', () => {
  const pinned: PinnedRecords = {
    customers: [{ id: 'cus_ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
    experiences: [{ id: 'exp_engine', slug: 'analytical-engine', type: 'course', name: 'The Analytical Engine' }],
    price_variants: [{ id: 'pv_engine', experience_ids: ['exp_engine'], name: 'Engine pass', amount: 4200 }],
  };

  it('seeds from the inline template and serves the pinned names through /v1; a reset restores them', async () => {
    const app = makeApp();
    const res = await client(app).post('/__admin/accounts').send({ plan: 'free', template, pinned });
    expect(res.status).toBe(201);
    expect(res.body.account.credits).toEqual({ balance: 7, used: 0 });
    const { id } = res.body.account as { id: string };
    const token = res.body.api_key.token as string;
    const list = await client(app).get('/v1/experiences?limit=100').set(bearer(token));
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.find((e: { id: string }) => e.id === 'exp_engine')).toMatchObject({
      name: 'The Analytical Engine',
      slug: 'analytical-engine',
    });
    const state = (await client(app).get(`/__admin/accounts/${id}`)).body.state;
    expect(state.customers).toHaveLength(3);
    expect(state.customers.find((c: { id: string }) => c.id === 'cus_ada')).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(state.price_variants.find((v: { id: string }) => v.id === 'pv_engine')).toMatchObject({ name: 'Engine pass', amount: 4200 });
    await client(app).delete('/v1/price_variants/pv_engine/experiences/exp_engine').set(bearer(token));
    await client(app).post(`/__admin/accounts/${id}/reset`);
    const again = (await client(app).get(`/__admin/accounts/${id}`)).body.state;
    expect(again.price_variants.find((v: { id: string }) => v.id === 'pv_engine').experience_ids).toEqual(['exp_engine']);
  });

  it('takes pinned records over the sandbox template when no template is given', async () => {
    const res = await create({ pinned: { discounts: [{ id: 'disc_team', slug: 'team50', percent_off: 50 }] } });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ pinned: { experiences: [{ id: 'exp_a', name: '' }] } }, 'pinned.experiences.0.name'],
    [{ pinned: { experiences: [{ id: 'exp_a', colour: 'red' }] } }, 'pinned.experiences.0.colour'],
    [{ pinned: { price_variants: [{ id: 'pv_a', experience_ids: ['exp_nope'] }] } }, 'pinned.price_variants.0.experience_ids.0'],
    [
      {
        pinned: {
          customers: [
            { id: 'cus_a', email: 'a@b.co' },
            { id: 'cus_b', email: 'a@b.co' },
          ],
        },
      },
      'pinned.customers.1.email',
    ],
    [{ template: { credits: { free: 1 }, counts: {} } }, 'template.credits.paid'],
    [{ template: { credits: { free: 1, paid: 1 }, counts: { customers: -1 } } }, 'template.counts.customers'],
    [{ template, fixture: 'default' }, 'template'],
  ])('refuses %j with 422 naming %s', async (body, param) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.error.param).toBe(param);
    expect(Object.keys(res.body.error.errors)).toContain(param);
  });

  it('bounds what one request may ask to seed: 1,000 pinned records per collection, about 1,000 records more than the template', async () => {
    const customers = Array.from({ length: 1001 }, (_, i) => ({ id: `cus_${i}` }));
    const tooMany = await create({ pinned: { customers } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.param).toBe('pinned.customers');
    const big = await create({ template: { credits: { free: 1, paid: 1 }, counts: { customers: 100_000 } } });
    expect(big.status).toBe(422);
    expect(big.body.error.param).toBe('template.counts');
    expect(big.body.error.errors['template.counts'][0]).toMatch(
      /^asks to seed about 1001\d\d records; a request may ask for at most 1000 \(beyond the sandbox template's own\)$/,
    );
    const experiences = Array.from({ length: 100 }, (_, i) => ({ id: `exp_${i}`, type: 'course' }));
    const ids = experiences.map((e) => e.id);
    const fanOut = await create({ pinned: { experiences, price_variants: [{ id: 'pv_all', experience_ids: ids }] } });
    expect(fanOut.status).toBe(201);
    const wide = await create({ pinned: { experiences, price_variants: [1, 2, 3].map((n) => ({ id: `pv_${n}`, experience_ids: ids })) } });
    expect(wide.status).toBe(422);
    expect(wide.body.error.param).toBe('pinned');
  });

  it('the typed admin client creates a tenant from inline pinned records', async () => {
    const mock = await startServer();
    try {
      const tenant = await mock.admin.accounts.create({ template, pinned });
      const res = await fetch(`${mock.apiUrl}/experiences?limit=100`, { headers: bearer(tenant.api_key.token) });
      const body = (await res.json()) as { data: { id: string; name: string }[] };
      expect(body.data.find((e) => e.id === 'exp_engine')?.name).toBe('The Analytical Engine');
    } finally {
      await mock.close();
    }
  });
});
