/** Contract §3.5 and §1: the scenario admin API, boot scenarios, reset, and the typed admin client. */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { runCli, startCli, type RunningCli } from '../support/cli.js';
import { mockServers } from '../support/protocol.js';
import { activate, activeScenarios } from '../support/scenarios.js';

// Contract §3.5, §4.2 (the transport faults) and §4.3 (the webhook ones), in the catalog's order.
// A deliberate change detector, not read from scenarios/: the contract's names never change silently.
const SHIPPED = [
  'connection-reset',
  'crawl-fails',
  'deprecated-operations',
  'empty-response',
  'keys-expired',
  'no-response',
  'rate-limited',
  'server-error',
  'slow-responses',
  'truncated-response',
  'webhooks-badly-signed',
  'webhooks-duplicated',
  'webhooks-out-of-order',
];

describe('GET /__admin/scenarios (contract §3.5)', () => {
  it('contract §3.5: lists every shipped scenario with its description and declared params, and the active ones', async () => {
    const c = client(makeApp());
    const res = await c.get('/__admin/scenarios');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['available', 'active']);
    expect(res.body.available.map((s: { name: string }) => s.name)).toEqual(SHIPPED);
    for (const scenario of res.body.available) expect(scenario.description.length).toBeGreaterThan(40);
    const params = Object.fromEntries(res.body.available.map((s: { name: string; params: object }) => [s.name, Object.keys(s.params)]));
    expect(params).toEqual({
      'connection-reset': ['when'],
      'empty-response': ['when'],
      'no-response': ['when', 'after_ms'],
      'truncated-response': ['when'],
      'crawl-fails': ['error_code', 'error'],
      'deprecated-operations': ['deprecated_at', 'sunset', 'link'],
      'keys-expired': [],
      'rate-limited': ['retry_after'],
      'server-error': [],
      'slow-responses': ['delay_ms'],
      'webhooks-badly-signed': [],
      'webhooks-duplicated': [],
      'webhooks-out-of-order': [],
    });
    expect(res.body.active).toEqual([]);
  });
});

describe('POST /__admin/scenarios (contract §3.5)', () => {
  it('contract §3.5: answers 201 with the ActiveScenario, params filled from their defaults', async () => {
    const c = client(makeApp());
    const active = await activate(c, {
      name: 'slow-responses',
      account_id: ACCOUNTS.paid,
      api_key_id: 'key_paid_default',
      operation_id: 'getStatus',
      times: 3,
    });
    expect(active).toEqual({
      id: 'scn_000001',
      name: 'slow-responses',
      account_id: ACCOUNTS.paid,
      api_key_id: 'key_paid_default',
      operation_id: 'getStatus',
      times: 3,
      remaining: 3,
      probability: 1,
      params: { delay_ms: 1000 },
      activated_at: FROZEN_AT,
    });
    expect(await activeScenarios(c)).toEqual([active]);
    expect((await c.get(`/__admin/scenarios/${active.id}`)).body).toEqual(active);
  });

  it('contract §3.5: an unknown name is 422 naming the available ones', async () => {
    const res = await client(makeApp()).post('/__admin/scenarios').send({ name: 'flaky' });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'name',
      errors: { name: [`unknown scenario 'flaky' (available: ${SHIPPED.join(', ')})`] },
    });
  });

  it('contract §3.5: an unknown param is 422 naming it and the params the scenario has', async () => {
    const res = await client(makeApp())
      .post('/__admin/scenarios')
      .send({ name: 'rate-limited', params: { retry: 5 } });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'params.retry',
      errors: { 'params.retry': ["is not a param of 'rate-limited' (its params: retry_after)"] },
    });
  });

  it('§7.3.1: a scope naming an account or key that does not exist is 404 resource_missing naming the field', async () => {
    const c = client(makeApp());
    expectError(await c.post('/__admin/scenarios').send({ name: 'server-error', account_id: 'acct_nope' }), 'resource_missing', {
      api: false,
      param: 'account_id',
      message: "No such account: 'acct_nope'.",
    });
    expectError(await c.post('/__admin/scenarios').send({ name: 'server-error', api_key_id: 'key_nope' }), 'resource_missing', {
      api: false,
      param: 'api_key_id',
      message: "No such API key: 'key_nope'.",
    });
  });

  it("contract §3.5: a key of another account than the scope's is 422: the scope could never match", async () => {
    const res = await client(makeApp())
      .post('/__admin/scenarios')
      .send({ name: 'server-error', account_id: ACCOUNTS.paid, api_key_id: 'key_free_default' });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'api_key_id',
      errors: { api_key_id: [`belongs to account '${ACCOUNTS.free}', not '${ACCOUNTS.paid}': the scope could never match`] },
    });
  });

  it.each([
    [{}, 'parameter_missing', 'name'],
    [{ name: 'server-error', scope: 'all' }, 'parameter_unknown', 'scope'],
    [{ name: 'server-error', times: 0 }, 'validation_failed', 'times'],
    [{ name: 'server-error', times: 1.5 }, 'validation_failed', 'times'],
    [{ name: 'server-error', params: [] }, 'validation_failed', 'params'],
    [{ name: 'server-error', account_id: '' }, 'validation_failed', 'account_id'],
  ] as const)('§7.2: the body %j is refused (%s, param %s) and nothing is activated', async (body, code, param) => {
    const c = client(makeApp());
    const res = await c.post('/__admin/scenarios').send(body);
    expect(res.status).toBe(code === 'validation_failed' ? 422 : 400);
    expect(res.body.error).toMatchObject({ code, param });
    expect(await activeScenarios(c)).toEqual([]);
  });

  it('contract §3.5: `times: null` and omitted scope fields mean unlimited and unscoped', async () => {
    const active = await activate(client(makeApp()), { name: 'server-error', times: null, account_id: null });
    expect(active).toMatchObject({ times: null, remaining: null, account_id: null, api_key_id: null, operation_id: null });
  });
});

describe('DELETE /__admin/scenarios (contract §3.5)', () => {
  it('contract §3.5: deletes one by id (then 404), or all at once; requests are unaffected afterwards', async () => {
    const c = client(makeApp());
    const first = await activate(c, { name: 'server-error', operation_id: 'getStatus' });
    const second = await activate(c, { name: 'rate-limited', operation_id: 'listApiKeys' });
    await activate(c, { name: 'keys-expired', account_id: ACCOUNTS.paid });
    const deleted = await c.delete(`/__admin/scenarios/${first.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...first, deleted: true });
    expectError(await c.delete(`/__admin/scenarios/${first.id}`), 'resource_missing', {
      api: false,
      param: 'id',
      message: `No such active scenario: '${first.id}'.`,
    });
    expectError(await c.get(`/__admin/scenarios/${first.id}`), 'resource_missing', {
      api: false,
      param: 'id',
      message: `No such active scenario: '${first.id}'.`,
    });
    expect((await c.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    expect((await activeScenarios(c)).map((a) => a.id)).toEqual([second.id, 'scn_000003']);
    const cleared = await c.delete('/__admin/scenarios');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ deleted: 2 });
    expect(await activeScenarios(c)).toEqual([]);
    expect((await c.get('/v1/auth/keys').set(bearer(KEYS.free))).status).toBe(200);
    expect((await c.get('/v1/status').set(bearer(KEYS.paid))).status).toBe(200);
  });
});

describe('boot scenarios and reset (contract §1, §3.1, §3.5)', () => {
  it('contract §1: the `scenarios` option activates each entry at boot, with scope, times and params after `;`', async () => {
    const c = client(
      makeApp({ scenarios: ['rate-limited;times=1;retry_after=9', `crawl-fails;account_id=${ACCOUNTS.paid};error_code=site_down`] }),
    );
    expect(await activeScenarios(c)).toEqual([
      expect.objectContaining({ id: 'scn_000001', name: 'rate-limited', times: 1, remaining: 1, params: { retry_after: 9 } }),
      expect.objectContaining({
        id: 'scn_000002',
        name: 'crawl-fails',
        account_id: ACCOUNTS.paid,
        times: null,
        params: expect.objectContaining({ error_code: 'site_down' }),
      }),
    ]);
    const res = await c.get('/v1/status').set(bearer(KEYS.free));
    expect([res.status, res.headers['retry-after']]).toEqual([429, '9']);
  });

  it('contract §3.1: reset clears every activation and brings the boot ones back, ids and counts restarted', async () => {
    const c = client(makeApp({ scenarios: ['rate-limited;times=1'] }));
    await c.get('/v1/status').set(bearer(KEYS.free));
    await activate(c, { name: 'server-error' });
    expect((await activeScenarios(c)).map((a) => a.name)).toEqual(['server-error']);
    expect((await c.post('/__admin/reset')).status).toBe(200);
    expect(await activeScenarios(c)).toEqual([expect.objectContaining({ id: 'scn_000001', name: 'rate-limited', remaining: 1 })]);
    expect((await c.get('/v1/status').set(bearer(KEYS.free))).status).toBe(429);
    expect((await c.get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it.each([
    ['nope', /^scenario: "nope": name: unknown scenario 'nope' \(available: connection-reset, crawl-fails,/],
    ['rate-limited;retry_after=soon', /^scenario: "rate-limited;retry_after=soon": params\.retry_after: must be of type integer or null$/],
    ['server-error;times=0', /^scenario: "server-error;times=0": times: must be a positive integer, got "0"$/],
    ['server-error;account_id=acct_nope', /^scenario: "server-error;account_id=acct_nope": account_id: No such account: 'acct_nope'\.$/],
    ['server-error;operation_id', /^scenario: "server-error;operation_id": operation_id: needs a value/],
    ['server-error,rate-limited', /^scenario: "server-error,rate-limited": name: expected a scenario name/],
  ])('contract §1: a boot scenario %j is refused with a ConfigError naming the setting', (spec, message) => {
    expect(() => makeApp({ scenarios: [spec] })).toThrow(ConfigError);
    expect(() => makeApp({ scenarios: [spec] })).toThrow(message);
  });
});

describe('the CLI (contract §1)', () => {
  let running: RunningCli | undefined;
  afterEach(() => {
    running?.child.kill('SIGKILL');
    running = undefined;
  });

  it('contract §1: --scenario is repeatable and MOCK_SCENARIOS is a comma list; flags win', () => {
    expect(
      parseCliSettings(['--scenario', 'rate-limited;times=2', '--scenario', 'server-error'], { MOCK_SCENARIOS: 'keys-expired' }).options
        .scenarios,
    ).toEqual(['rate-limited;times=2', 'server-error']);
    expect(parseCliSettings([], { MOCK_SCENARIOS: 'keys-expired, slow-responses;delay_ms=5' }).options.scenarios).toEqual([
      'keys-expired',
      'slow-responses;delay_ms=5',
    ]);
  });

  it('contract §1: --scenario activates at boot', async () => {
    running = await startCli(['--port', '0', '--clock', 'frozen', '--scenario', 'rate-limited;retry_after=4']);
    const res = await fetch(`${running.url}/v1/status`, { headers: bearer(KEYS.free) });
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '4']);
  });

  it.each([
    [['--scenario', 'nope'], {}, /^creator-commerce-mock: --scenario: "nope": name: unknown scenario 'nope'/],
    [[], { MOCK_SCENARIOS: 'server-error,nope' }, /^creator-commerce-mock: MOCK_SCENARIOS: "nope": name: unknown scenario 'nope'/],
  ])('contract §1: an unknown boot scenario %j %j exits 2 with one line naming the setting as typed', async (args, env, message) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it('contract §1: --help lists --scenarios-dir and --journal-size with their variables', async () => {
    const result = await runCli(['--help']);
    for (const name of ['--scenarios-dir', 'MOCK_SCENARIOS_DIR', '--journal-size', 'MOCK_JOURNAL_SIZE'])
      expect(result.stdout).toContain(name);
  });
});

describe('the typed admin client (contract §1, §3)', () => {
  const start = mockServers();

  it('contract §3.5: mock.admin.scenarios activates, lists, gets, deactivates and clears; errors carry the envelope', async () => {
    const mock = await start({ clock: FROZEN_AT });
    const { account, api_key } = await mock.admin.accounts.create({ plan: 'free' });
    const active = await mock.admin.scenarios.activate({ name: 'server-error', account_id: account.id, times: 2 });
    expect(await mock.admin.scenarios.get(active.id)).toEqual(active);
    expect((await fetch(`${mock.apiUrl}/status`, { headers: bearer(api_key.token) })).status).toBe(500);
    expect((await mock.admin.scenarios.list()).active).toEqual([{ ...active, remaining: 1 }]);
    expect(await mock.admin.scenarios.deactivate(active.id)).toEqual({ ...active, remaining: 1, deleted: true });
    await mock.admin.scenarios.activate('keys-expired');
    expect(await mock.admin.scenarios.clear()).toEqual({ deleted: 1 });
    await expect(mock.admin.scenarios.activate('nope')).rejects.toThrow(/422 validation_failed/);
    const { data } = await mock.admin.requests.list({ account_id: account.id });
    expect(data.map((e) => e.status)).toEqual([500]);
    expect(mock.admin.journal).toBe(mock.admin.requests);
  });

  it('contract §3: with an admin token, scenario and journal calls need it', async () => {
    const c = client(makeApp({ adminToken: 'sesame' }));
    for (const res of [
      await c.get('/__admin/scenarios'),
      await c.post('/__admin/scenarios').send({ name: 'server-error' }),
      await c.get('/__admin/requests'),
      await c.delete('/__admin/requests'),
    ]) {
      expectError(res, 'authentication_required', { api: false, message: /X-Admin-Token/ });
    }
    expect((await c.get('/__admin/scenarios').set('X-Admin-Token', 'sesame')).status).toBe(200);
  });
});
