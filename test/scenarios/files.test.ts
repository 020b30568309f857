/**
 * Contract §3.5: scenarios are data. A user's own files (the `scenariosDir` option) use the same
 * rule language as the shipped ones, are checked at load with errors naming the file and the JSON
 * path, and need no code. The examples of scenarios/README.md are loaded here too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';
import { ScenarioDefinition, ScenarioFileError } from '../../src/scenarios/definition.js';
import { createApp } from '../../src/app.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { runCli } from '../support/cli.js';
import { advance, pollJob } from '../support/jobs.js';
import { readDeprecation } from '../support/protocol.js';
import { activate, activeScenarios, journal, scenarioDir } from '../support/scenarios.js';

const withFiles = (files: Record<string, unknown>) => makeApp({ scenariosDir: scenarioDir(files) });
/**
 * Without the harness's API-description check: a scenario of your own may force a status the
 * document does not list for the operation (a 503, a 404 on getStatus); that is its purpose.
 */
const uncheckedWithFiles = (files: Record<string, unknown>) =>
  request(createApp({ clock: FROZEN_AT, scenariosDir: scenarioDir(files) }).callback());
const one = (rule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  description: 'A test scenario.',
  rules: [rule],
  ...extra,
});

describe('a scenario file of your own (contract §3.5)', () => {
  it('contract §3.5: status and error-code override, Retry-After and a match on methods, without code', async () => {
    const c = uncheckedWithFiles({
      'maintenance.json': one(
        {
          match: { methods: ['POST', 'PATCH', 'DELETE'] },
          effect: { error: { code: 'internal_error', status: 503, message: 'Down for maintenance.', retry_after: { $param: 'for' } } },
        },
        { params: { for: { type: 'integer', minimum: 1, default: 120 } } },
      ),
    });
    await activate(c, { name: 'maintenance', params: { for: 30 } });
    const write = await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({});
    expect(write.status).toBe(503);
    expect(write.body).toEqual({ error: { type: 'api_error', code: 'internal_error', message: 'Down for maintenance.' } });
    expect(write.headers['retry-after']).toBe('30');
    expect(write.headers['request-id']).toMatch(/^req_/);
    expect((await c.get('/v1/auth/keys').set(bearer(KEYS.free))).status).toBe(200);
  });

  it('contract §3.5: rules match operations; one request counts once against times, however many parts acted', async () => {
    const c = client(
      withFiles({
        'flaky-crawls.json': {
          description: 'Crawls are cancelled before they start, and the job endpoint is deprecated.',
          rules: [
            { match: { operations: ['crawlSite'] }, effect: { delay_ms: 0, job: { outcome: 'cancelled', at_progress: 0 } } },
            {
              match: { operations: ['getJob'] },
              effect: { deprecate: { deprecated_at: '2026-01-01T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: '/migrations/jobs' } },
            },
          ],
        },
      }),
    );
    const active = await activate(c, { name: 'flaky-crawls', times: 2 });
    const crawl = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
    expect((await activeScenarios(c))[0]!.remaining).toBe(1);
    await advance(c, 60);
    const job = await c.get(`/v1/jobs/${crawl.body.id}`).set(bearer(KEYS.free));
    expect(job.body).toMatchObject({ status: 'cancelled', progress: 0, started_at: null });
    expect(readDeprecation(job).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(job.headers.link).toBe('</migrations/jobs>; rel="deprecation"');
    expect(await activeScenarios(c)).toEqual([]);
    expect((await journal(c)).map((e) => [e.operation_id, e.scenario_ids])).toEqual([
      ['getJob', [active.id]],
      ['crawlSite', [active.id]],
    ]);
  });

  it('contract §3.5: a null param leaves its property out, so the effect default applies', async () => {
    const c = uncheckedWithFiles({
      'not-found.json': one(
        { effect: { error: { code: 'resource_missing', message: { $param: 'message' } } } },
        { params: { message: { type: ['string', 'null'], default: null } } },
      ),
    });
    await activate(c, { name: 'not-found', operation_id: 'getStatus', times: 1 });
    expectError(await c.get('/v1/status').set(bearer(KEYS.free)), 'resource_missing', { message: 'No such resource.' });
    await activate(c, { name: 'not-found', params: { message: 'Gone fishing.' } });
    expectError(await c.get('/v1/status').set(bearer(KEYS.free)), 'resource_missing', { message: 'Gone fishing.' });
  });

  it('contract §3.5: expire_key combined with a method match expires keys for writes only', async () => {
    const c = client(withFiles({ 'writes-expired.json': one({ match: { methods: ['POST'] }, effect: { expire_key: true } }) }));
    await activate(c, { name: 'writes-expired', account_id: ACCOUNTS.free });
    expect((await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({})).status).toBe(401);
    expect((await c.get('/v1/auth/keys').set(bearer(KEYS.free))).status).toBe(200);
    expect((await c.post('/v1/auth/keys').set(bearer(KEYS.paid)).send({})).status).toBe(201);
  });

  it("contract §3.5: an activation scoped to an operation none of the scenario's rules match is refused with 422", async () => {
    const c = client(withFiles({ 'crawl-only.json': one({ match: { operations: ['crawlSite'] }, effect: { job: { slow_factor: 2 } } }) }));
    const res = await c.post('/__admin/scenarios').send({ name: 'crawl-only', operation_id: 'getStatus' });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'operation_id',
      errors: { operation_id: ["no rule of 'crawl-only' matches operation 'getStatus' (GET)"] },
    });
  });

  it('contract §3.5: a job effect may only slow jobs down, combining with crawl-fails', async () => {
    const c = client(withFiles({ 'slow-jobs.json': one({ effect: { job: { slow_factor: 10 } } }) }));
    await activate(c, { name: 'slow-jobs' });
    await activate(c, { name: 'crawl-fails' });
    const crawl = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/', max_pages: 1 });
    await advance(c, 5);
    expect((await pollJob(c, KEYS.free, crawl.body.id)).status).toBe('queued');
    await advance(c, 3600);
    expect((await pollJob(c, KEYS.free, crawl.body.id)).status).toBe('failed');
  });
});

describe('invalid scenario files are refused at load (contract §3.5)', () => {
  const DEPRECATE = { deprecated_at: '2026-01-01T00:00:00Z', sunset: '2026-06-01T00:00:00Z', link: '/x' };
  it.each([
    ['not JSON', '{"description": ', /^scenario .*bad\.json: not valid JSON/],
    ['no description', { rules: [{ effect: { delay_ms: 1 } }] }, /bad\.json at \/: missing field 'description'/],
    ['an unknown field', { ...one({ effect: { delay_ms: 1 } }), name: 'x' }, /bad\.json at \/: unknown field 'name'/],
    ['no rules', { description: 'x', rules: [] }, /bad\.json at \/rules: must have at least 1 item/],
    ['an unknown effect', one({ effect: { explode: true } }), /bad\.json at \/rules\/0\/effect: unknown field 'explode'/],
    ['an empty effect', one({ effect: {} }), /bad\.json at \/rules\/0\/effect: must not be empty/],
    [
      'an unknown error code',
      one({ effect: { error: { code: 'teapot' } } }),
      /bad\.json at \/rules\/0\/effect\/error\/code: must be one of: bad_request, /,
    ],
    [
      'a status outside 400-599',
      one({ effect: { error: { code: 'internal_error', status: 302 } } }),
      /bad\.json at \/rules\/0\/effect\/error\/status: must be >= 400/,
    ],
    ['a delay over the bound', one({ effect: { delay_ms: 30_001 } }), /bad\.json at \/rules\/0\/effect\/delay_ms: must be <= 30000/],
    [
      'an undeclared param',
      one({ effect: { delay_ms: { $param: 'delay' } } }),
      /bad\.json at \/rules\/0\/effect\/delay_ms\/\$param: unknown param 'delay' \(declared: none\)/,
    ],
    [
      'a param reference with more',
      one({ effect: { delay_ms: { $param: 'd', x: 1 } } }, { params: { d: { type: 'integer', default: 1 } } }),
      /at \/rules\/0\/effect\/delay_ms: a param reference is exactly \{"\$param": "<name>"\}/,
    ],
    [
      'a param without default',
      one({ effect: { delay_ms: { $param: 'd' } } }, { params: { d: { type: 'integer' } } }),
      /bad\.json at \/params\/d: missing field 'default'/,
    ],
    [
      'a default off its schema',
      one({ effect: { delay_ms: { $param: 'd' } } }, { params: { d: { type: 'integer', maximum: 100, default: 500 } } }),
      /bad\.json at \/params\/d\/default: must be <= 100/,
    ],
    [
      'a broken param schema',
      one({ effect: { delay_ms: { $param: 'd' } } }, { params: { d: { type: 'integer', minimun: 1, default: 1 } } }),
      /bad\.json at \/params\/d: not a valid JSON Schema: strict mode: unknown keyword: "minimun"/,
    ],
    [
      'a param named like a scope key',
      one({ effect: { delay_ms: 1 } }, { params: { times: { type: 'integer', default: 1 } } }),
      /bad\.json at \/params: invalid name 'times'/,
    ],
    [
      'an effect its default breaks',
      one({ effect: { delay_ms: { $param: 'd' } } }, { params: { d: { type: 'integer', default: 40_000 } } }),
      /at \/rules\/0\/effect\/delay_ms: must be <= 30000 \(param 'd' at its default 40000\)/,
    ],
    [
      'two answers in one effect',
      one({ effect: { error: { code: 'internal_error' }, expire_key: true } }),
      /at \/rules\/0\/effect\/expire_key: cannot be combined with 'error'/,
    ],
    [
      'a sunset too early',
      one({ effect: { deprecate: DEPRECATE } }),
      /at \/rules\/0\/effect\/deprecate\/sunset: must be at least 6 calendar months and 183 days after deprecated_at/,
    ],
    [
      'an unknown operation',
      one({ match: { operations: ['listWidgets'] }, effect: { delay_ms: 1 } }),
      /at \/rules\/0\/match\/operations\/0: unknown operation 'listWidgets' \(known operations: /,
    ],
    [
      'an unknown method',
      one({ match: { methods: ['PUT'] }, effect: { delay_ms: 1 } }),
      /at \/rules\/0\/match\/methods\/0: must be one of: GET, POST, PATCH, DELETE/,
    ],
    [
      'a job outcome that is not one',
      one({ effect: { job: { outcome: 'exploded' } } }),
      /at \/rules\/0\/effect\/job\/outcome: must be one of: completed, failed, cancelled/,
    ],
  ])('contract §3.5: a file with %s names the file and the JSON path', (_, content, message) => {
    expect(() => withFiles({ 'bad.json': content })).toThrow(ScenarioFileError);
    expect(() => withFiles({ 'bad.json': content })).toThrow(message);
  });

  it("contract §3.5: a file whose name is not a scenario name, or that reuses a shipped scenario's name, is refused", () => {
    expect(() => withFiles({ 'Rate_Limited.json': one({ effect: { delay_ms: 1 } }) })).toThrow(
      /Rate_Limited\.json: the file name is the scenario's name: lowercase/,
    );
    expect(() => withFiles({ 'rate-limited.json': one({ effect: { delay_ms: 1 } }) })).toThrow(
      /rate-limited\.json: a scenario named 'rate-limited' is already defined by scenarios\/rate-limited\.json/,
    );
  });

  it('contract §1: a scenarios directory that does not exist is a ConfigError naming the setting', () => {
    expect(() => makeApp({ scenariosDir: '/no/such/dir' })).toThrow(ConfigError);
    expect(() => makeApp({ scenariosDir: '/no/such/dir' })).toThrow(/^scenarios-dir: not a directory: \/no\/such\/dir$/);
  });

  it('contract §1: the CLI exits 2 with one line naming the file and the path', async () => {
    const dir = scenarioDir({ 'broken.json': one({ effect: { error: { code: 'teapot' } } }) });
    const result = await runCli(['--port', '0', '--scenarios-dir', dir]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^creator-commerce-mock: scenario .*broken\.json at \/rules\/0\/effect\/error\/code: must be one of/);
  });

  it('README: other files of the directory (a README) are not scenarios', () => {
    const c = withFiles({ 'README.md': '# mine', 'quiet.json': one({ effect: { delay_ms: 0 } }) });
    expect(c.sandbox.world.scenarios.available().map((s) => s.name)).toContain('quiet');
  });
});

describe('the shipped scenarios', () => {
  it('contract §3.5: every shipped file passes the full check, params schemas and defaults included (skipped at start-up)', () => {
    const files = readdirSync(path.join(PACKAGE_ROOT, 'scenarios')).filter((f) => f.endsWith('.json'));
    // Every file is in the catalog and every catalog entry has its file (the names are pinned as the contract's in admin.test.ts).
    const shipped = makeApp()
      .sandbox.world.scenarios.available()
      .map((s) => `${s.name}.json`);
    expect([...files].sort()).toEqual([...shipped].sort());
    for (const file of files) {
      const raw = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'scenarios', file), 'utf8')) as unknown;
      expect(() => ScenarioDefinition.parse(path.basename(file, '.json'), file, raw, { checkParamSchemas: true }), file).not.toThrow();
    }
  });
});

describe('scenarios/README.md examples', () => {
  /** Every ```json block right after a line `` `name.json`: `` is a complete scenario file. */
  const readme = readFileSync(path.join(PACKAGE_ROOT, 'scenarios', 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/^`([a-z0-9-]+)\.json`:\n+```json\n([\s\S]*?)\n```/gm)].map(
    (m) => [m[1]!, JSON.parse(m[2]!)] as const,
  );

  it('README: has examples, and every one loads and can be activated', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const app = withFiles(Object.fromEntries(examples.map(([name, content]) => [`${name}.json`, content])));
    for (const [name] of examples) await activate(client(app), { name });
  });
});
