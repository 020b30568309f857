/**
 * Contract §5.4: `GET /__admin/openapi.json` is the OpenAPI 3.1 document of every /__admin route,
 * generated from the declarations that route and validate them: it names every route of the router,
 * its answers are what the routes send, its errors are /openapi.json's envelopes, Redocly's
 * recommended ruleset finds nothing in it, and a client generated from it compiles under `strict`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_OPERATIONS } from '../../src/admin/operations.js';
import { methodOf, pathOf, type AdminOperation } from '../../src/admin/route-kit.js';
import { ADMIN_PREFIX, buildAdminRouter } from '../../src/admin/routes.js';
import { typeCheckGeneratedClient } from '../support/generated-client.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REDOCLY_CLI = join(PROJECT_ROOT, 'node_modules/@redocly/cli/bin/cli.js');
/** Offline and quiet: no usage telemetry, no update check (as test/openapi/lint.test.ts runs it). */
const OFFLINE_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };
// Linting and compiling are seconds of CPU; the timeout is a safety net for a hung child, not a budget.
const TOOL_TIMEOUT_MS = 180_000;

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

let document: Document;
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  const served = await client(makeApp()).get('/__admin/openapi.json');
  expect(served.status).toBe(200);
  document = served.body as Document;
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `METHOD /__admin/path/{id}` of every route the router serves, walked from its layers (not from the table). */
function routerRoutes(): string[] {
  const router = buildAdminRouter() as unknown as { stack: Array<{ path: string; methods: string[] }> };
  return router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path.replace(/:([a-z_]+)/g, '{$1}')}`),
  );
}

describe('contract §5.4: GET /__admin/openapi.json', () => {
  it('contract §5.4: an OpenAPI 3.1 document naming every route of the admin router, and nothing else', () => {
    expect(document.openapi).toBe('3.1.0');
    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${ADMIN_PREFIX}${path}`),
    );
    expect(described.sort()).toEqual(routerRoutes().sort());
    expect(described).toContain('GET /__admin/openapi.json');
  });

  it('contract §5.4: every route has its success answer and error answers, the errors in the envelope schemas of /openapi.json', async () => {
    const api = (await client(makeApp()).get('/openapi.json')).body as Document;
    for (const operation of ADMIN_OPERATIONS) {
      const described = document.paths[pathOf(operation)]![methodOf(operation)]!;
      const statuses = Object.keys(described.responses).map(Number);
      expect(statuses, operation.route).toContain(operation.answer.status);
      for (const status of [...operation.errors, 400, 401, 403]) expect(statuses, operation.route).toContain(status);
      for (const status of statuses.filter((code) => code >= 400)) {
        const ref = (described.responses[String(status)]!.content!['application/json']!.schema as { $ref: string }).$ref;
        const name = ref.slice(ref.lastIndexOf('/') + 1);
        expect(name).toBe(`ErrorEnvelope${status}`);
        // The same envelope as /openapi.json's, wherever that document has the status too.
        if (api.components.schemas[name]) expect(document.components.schemas[name], name).toEqual(api.components.schemas[name]);
      }
    }
  });

  it(
    "contract §5.4: Redocly's recommended ruleset reports no error and no warning",
    async () => {
      // Its own folder as working directory, so no redocly.yaml of the project or its parents applies.
      const dir = tempDir('ccm-admin-redocly-');
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [REDOCLY_CLI, 'lint', 'openapi.json', '--extends=recommended', '--format=json', '--max-problems=10000'],
        { cwd: dir, env: { ...process.env, ...OFFLINE_ENV }, maxBuffer: 64 * 1024 * 1024 },
      );
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
      };
      expect(report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    TOOL_TIMEOUT_MS,
  );

  it(
    'contract §5.4: a client generated by openapi-typescript compiles under strict, every answer typed',
    async () => {
      const { diagnostics } = await typeCheckGeneratedClient(
        document,
        tempDir('ccm-admin-client-'),
        generatedClientProgram(ADMIN_OPERATIONS),
      );
      expect(diagnostics).toEqual([]);
    },
    TOOL_TIMEOUT_MS,
  );
});

/**
 * A program over the generated types: every route's success answer must have a real type (`any` and
 * `unknown` refused), and openapi-fetch calls with path parameters, queries and bodies type-check.
 */
function generatedClientProgram(operations: readonly AdminOperation[]): string {
  const answers = operations.map((operation, index) => {
    const path = JSON.stringify(pathOf(operation));
    return `type Answer${index} = paths[${path}]['${methodOf(operation)}']['responses'][${operation.answer.status}]['content']['application/json'];
export const answer${index}: Typed<Answer${index}> = null as never;`;
  });
  return String.raw`
import createClient from 'openapi-fetch';
import type { paths } from './schema';

type Typed<T> = 0 extends 1 & T ? never : unknown extends T ? never : T;

${answers.join('\n')}

const admin = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/__admin' });

export async function useTheClient(): Promise<string[]> {
  const seen: string[] = [];
  const created = await admin.POST('/accounts', { body: { plan: 'paid', clock: 'frozen' } });
  if (created.data) {
    seen.push(created.data.account.id, created.data.api_key.last4);
    const state = await admin.GET('/accounts/{id}', { params: { path: { id: created.data.account.id } } });
    if (state.data) seen.push(String(state.data.state.credits.balance));
    const moved = await admin.POST('/accounts/{id}/clock/advance', { params: { path: { id: created.data.account.id } }, body: { seconds: 60 } });
    if (moved.data) seen.push(moved.data.now, String(moved.data.shared));
  }
  if (created.error) seen.push(created.error.error.code, created.error.error.message);
  const journal = await admin.GET('/requests', { params: { query: { limit: 10, account_id: 'acct_free_default' } } });
  if (journal.data) for (const entry of journal.data.data) seen.push(entry.request_id, String(entry.status));
  const scenario = await admin.POST('/scenarios', { body: { name: 'rate-limited', times: 2 } });
  if (scenario.data) seen.push(scenario.data.id, String(scenario.data.remaining));
  return seen;
}
`;
}

/** Validators of the declared answer schemas, as OpenAPI 3.1 reads them (JSON Schema 2020-12). */
function answerValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const cache = new Map<AdminOperation, ReturnType<typeof ajv.compile>>();
  return (operation: AdminOperation, body: unknown): string[] => {
    let validate = cache.get(operation);
    if (!validate) cache.set(operation, (validate = ajv.compile(operation.answer.schema)));
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${operation.route} ${error.instancePath} ${error.message}`);
  };
}

describe('contract §5.4: the answers the document describes are those the routes send', () => {
  it('every route answers its declared status with a body its declared schema accepts', async () => {
    const app = makeApp();
    const http = client(app);
    const validate = answerValidator();
    const exercised = new Set<string>();
    const byRoute = new Map(ADMIN_OPERATIONS.map((operation) => [operation.route, operation]));
    const call = async (route: string, path: string, body?: object) => {
      const operation = byRoute.get(route as AdminOperation['route'])!;
      const method = methodOf(operation);
      const pending = http[method](`${ADMIN_PREFIX}${path}`);
      const res = await (body === undefined ? pending : pending.send(body));
      expect(res.status, `${route}: ${res.text.slice(0, 300)}`).toBe(operation.answer.status);
      expect(validate(operation, res.body)).toEqual([]);
      exercised.add(route);
      return res.body as Record<string, any>;
    };

    await call('GET /health', '/health');
    await call('GET /openapi.json', '/openapi.json');
    await call('GET /clock', '/clock');
    await call('POST /clock', '/clock', { mode: 'running' });
    await call('POST /clock/advance', '/clock/advance', { seconds: 5 });
    const created = await call('POST /accounts', '/accounts', { plan: 'paid', name: 'Schemas' });
    const id = (created.account as { id: string }).id;
    await call('GET /accounts', '/accounts?limit=5');
    await http.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
    await call('GET /accounts/{id}', `/accounts/${ACCOUNTS.free}`);
    await call('PATCH /accounts/{id}', `/accounts/${id}`, { plan: 'free' });
    const key = await call('POST /api_keys', '/api_keys', { account_id: id, access: 'read_only' });
    await call('POST /api_keys/{id}/expire', `/api_keys/${key.id as string}/expire`);
    await call('POST /api_keys/{id}/revoke', `/api_keys/${key.id as string}/revoke`);
    await call('GET /accounts/{id}/clock', `/accounts/${id}/clock`);
    await call('POST /accounts/{id}/clock', `/accounts/${id}/clock`, { mode: 'frozen' });
    await call('POST /accounts/{id}/clock/advance', `/accounts/${id}/clock/advance`, { seconds: 60 });
    await call('POST /accounts/{id}/clock/advance', `/accounts/${id}/clock/advance`, { until: 'idle' });
    await call('POST /clock/advance', '/clock/advance', { until: 'idle', max_seconds: 60 });
    await call('POST /accounts/{id}/reset', `/accounts/${id}/reset`);
    const active = await call('POST /scenarios', '/scenarios', { name: 'server-error', account_id: id, times: 1 });
    await call('GET /scenarios', '/scenarios');
    await call('GET /scenarios/{id}', `/scenarios/${active.id as string}`);
    await call('DELETE /scenarios/{id}', `/scenarios/${active.id as string}`);
    await call('DELETE /scenarios', '/scenarios');
    await http.get('/v1/status?x=1').set(bearer(KEYS.free));
    await call('GET /requests', '/requests');
    // Contract §5.3: the HAR export is JSON, described like every other answer.
    const har = await http.get(`${ADMIN_PREFIX}/requests.har`);
    expect(har.headers['content-type']).toMatch(/^application\/json/);
    expect((await call('GET /requests.har', '/requests.har?limit=5')).log.entries).not.toHaveLength(0);
    await call('GET /coverage', `/coverage?account_id=${ACCOUNTS.free}`);
    await call('GET /coverage', '/coverage');
    await call('DELETE /coverage', '/coverage');
    await call('DELETE /requests', '/requests');
    // The same 404 twice: a non-retryable-retried finding (contract §5.1), so the listing holds one.
    await http.get('/v1/experiences/exp_none').set(bearer(KEYS.free));
    await http.get('/v1/experiences/exp_none').set(bearer(KEYS.free));
    const findings = await call('GET /findings', '/findings?limit=5');
    expect(findings.data).toHaveLength(1);
    await call('DELETE /findings', '/findings');
    await call('GET /accounts/{id}/findings/rules', `/accounts/${id}/findings/rules`);
    await call('POST /accounts/{id}/findings/rules', `/accounts/${id}/findings/rules`, { rules: { 'retry-after-ignored': 'off' } });
    // Port 9 (discard) refuses at once: the delivery fails its first attempt without waiting.
    const endpoint = await call('POST /webhook_endpoints', '/webhook_endpoints', { account_id: id, url: 'http://127.0.0.1:9/hook' });
    await call('GET /webhook_endpoints', `/webhook_endpoints?account_id=${id}`);
    await call('GET /webhook_endpoints/{id}', `/webhook_endpoints/${endpoint.id as string}`);
    await call('POST /events', '/events', { account_id: id, type: 'api_key.created' });
    const deliveries = await call('GET /webhook_deliveries', `/webhook_deliveries?account_id=${id}`);
    const [delivery] = deliveries.data as Array<{ id: string }>;
    await call('GET /webhook_deliveries/{id}', `/webhook_deliveries/${delivery!.id}`);
    await call('DELETE /webhook_endpoints/{id}', `/webhook_endpoints/${endpoint.id as string}`);
    await call('GET /accounts/{id}/records/{collection}', `/accounts/${id}/records/jobs?limit=5`);
    await call('GET /accounts/{id}/records/{collection}', `/accounts/${id}/records/inboxes`);
    const snapshot = await call('GET /accounts/{id}/snapshot', `/accounts/${id}/snapshot`);
    await call('DELETE /accounts/{id}', `/accounts/${id}`);
    await call('POST /accounts', '/accounts', { snapshot });
    await call('POST /reset', '/reset');

    expect([...exercised].sort()).toEqual(ADMIN_OPERATIONS.map((operation) => operation.route).sort());
  });
});
