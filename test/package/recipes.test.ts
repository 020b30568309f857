/**
 * The test-runner recipes of examples/ (README "Running it in CI and test runners"), each run as the
 * client project it is: copied into an empty folder, this package linked into its node_modules as
 * `npm link` would, and its own test command run. The package is built first (`npm run build`), so
 * the recipes use dist/ as a consumer gets it: the ESM bundle, the CommonJS bundle and the CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'ccm-recipes-'));

beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
}, 300_000);

/**
 * examples/<name> copied into an empty folder (`copy`, to run it twice), with this package and the recipe's other
 * devDependencies (a runner: jest, @playwright/test) installed as links to ours, bins included.
 */
function project(name: string, copy = name): string {
  const dir = path.join(work, copy);
  cpSync(path.join(ROOT, 'examples', name), dir, { recursive: true });
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  for (const dependency of Object.keys(manifest.devDependencies ?? {})) {
    const source = dependency === 'creator-commerce-mock' ? ROOT : path.join(ROOT, 'node_modules', dependency);
    mkdirSync(path.dirname(path.join(modules, dependency)), { recursive: true });
    symlinkSync(source, path.join(modules, dependency), 'dir');
    const { bin } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
    const bins = typeof bin === 'string' ? { [dependency.split('/').at(-1)!]: bin } : (bin ?? {});
    for (const [command, file] of Object.entries(bins)) symlinkSync(path.join(source, file), path.join(modules, '.bin', command));
  }
  return dir;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** A port nothing listens on: Playwright's webServer needs one fixed in its config. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

interface PlaywrightAttachment {
  name: string;
  contentType: string;
  body?: string;
}

/** The HAR of the deliberately failing tests: their POST /v1/auth/keys with `{"name":42}`, answered 422. */
function expectRefusedKeyInHar(text: string): void {
  const { log } = JSON.parse(text) as { log: { creator: { name: string }; entries: Array<Record<string, any>> } };
  expect(log.creator.name).toBe('creator-commerce-mock');
  const exchange = log.entries.find((entry) => entry.request.method === 'POST');
  expect(exchange!.request).toMatchObject({ method: 'POST', postData: { text: '{"name":42}' } });
  const sent = (exchange!.request.headers as Array<{ name: string; value: string }>).map((h) => [h.name.toLowerCase(), h.value]);
  expect(sent).toContainEqual(['idempotency-key', 'example-1']);
  expect(exchange!.response.status).toBe(422);
}

const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;

describe('test-runner recipes (examples/)', () => {
  it('node:test, ESM: a server per file, a tenant per file, a forced 429, expectNoFindings', () => {
    const { status, output } = run('npm', ['test', '--silent'], project('node-test'));
    expect(output).toMatch(/# pass 3\b/);
    expect(output).toMatch(/# fail 0\b/);
    expect(status).toBe(0);
  });

  it('CommonJS: require() loads the package (its `require` export), no flag needed', () => {
    const { status, output } = run('npm', ['test', '--silent'], project('commonjs'));
    expect(output).toMatch(/# pass 1\b/);
    expect(output).toMatch(/# fail 0\b/);
    expect(status).toBe(0);
  });

  it('Jest: globalSetup/globalTeardown start and stop one server, a tenant per test file, CommonJS, expectNoFindings', () => {
    const { status, output } = run('npm', ['test', '--silent', '--', '--maxWorkers=2'], project('jest'));
    expect(output).toMatch(/Tests:\s+4 passed, 4 total/);
    expect(status).toBe(0);
  });

  it('Playwright Test: the sandbox as its webServer, API tests with a tenant per test', async () => {
    const port = await freePort();
    const { status, output } = run('npm', ['test', '--silent'], project('playwright'), { COMMERCE_MOCK_PORT: String(port), CI: '1' });
    expect(output).toMatch(/\b2 passed\b/);
    expect(status).toBe(0);
  });

  it("Jest: a deliberately failing test leaves its tenant's HAR, findings and snapshot in the failure folder (contract §5.3)", () => {
    const dir = project('jest', 'jest-failure');
    const { status, output } = run('npm', ['run', 'test:failure-demo', '--silent'], dir);
    expect(output).toMatch(/Tests:\s+1 failed, 1 total/);
    expect(status).not.toBe(0);
    // <CCM_FAILURE_DIR or .creator-commerce-mock/failures>/<test file>/<test name>/
    const folder = path.join(dir, '.creator-commerce-mock', 'failures', 'keys.failing.js', 'creates-an-API-key');
    const files = readdirSync(folder).sort();
    expect(files.map((file) => file.replace(/^acct_[A-Za-z0-9]+\./, ''))).toEqual(['findings.json', 'har', 'snapshot.json']);
    expectRefusedKeyInHar(
      readFileSync(
        path.join(
          folder,
          files.find((file) => file.endsWith('.har'))!,
        ),
        'utf8',
      ),
    );
    const snapshot = JSON.parse(
      readFileSync(
        path.join(
          folder,
          files.find((file) => file.endsWith('.snapshot.json'))!,
        ),
        'utf8',
      ),
    );
    expect(snapshot).toMatchObject({ object: 'account_snapshot', version: 1 });
    expect(output).toContain(`the failed test's HAR, findings and snapshot are in ${folder}`);
  });

  it("Playwright Test: a deliberately failing test has its tenant's HAR, findings and snapshot attached, in its JSON report (contract §5.3)", async () => {
    const dir = project('playwright', 'playwright-failure');
    const port = await freePort();
    const { status, output } = run('npm', ['run', 'test:failure-demo', '--silent'], dir, { COMMERCE_MOCK_PORT: String(port), CI: '1' });
    expect(output).toMatch(/\b1 failed\b/);
    expect(status).not.toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'failure-report.json'), 'utf8')) as {
      suites: Array<{
        specs: Array<{ title: string; tests: Array<{ results: Array<{ status: string; attachments: PlaywrightAttachment[] }> }> }>;
      }>;
    };
    const [spec] = report.suites.flatMap((suite) => suite.specs);
    expect(spec!.title).toBe('creates an API key');
    const [result] = spec!.tests[0]!.results;
    expect(result!.status).toBe('failed');
    const attached = result!.attachments.filter((attachment) => attachment.name.startsWith('acct_'));
    expect(attached.map((attachment) => [attachment.name.replace(/^acct_[A-Za-z0-9]+\./, ''), attachment.contentType])).toEqual([
      ['har', 'application/json'],
      ['findings.json', 'application/json'],
      ['snapshot.json', 'application/json'],
    ]);
    expectRefusedKeyInHar(Buffer.from(attached[0]!.body!, 'base64').toString('utf8'));
  });

  it("vitest: a deliberately failing test takes its tenant's HAR with it, kept by the project's reporter (contract §5.3)", () => {
    const dir = project('vitest-failure');
    const { status, output } = run('npm', ['test', '--silent'], dir);
    expect(output).toMatch(/1 failed/);
    expect(status).not.toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'failure-report.json'), 'utf8')) as Array<{
      test: string;
      attachments: Array<{ message: string; contentType: string; body: string }>;
    }>;
    expect(report.map((failure) => failure.test)).toEqual(['creates an API key']);
    const har = report[0]!.attachments.find((attachment) => attachment.message.startsWith('HAR of tenant'));
    const { log } = JSON.parse(har!.body) as { log: { creator: { name: string }; entries: Array<Record<string, any>> } };
    expect(log.creator.name).toBe('creator-commerce-mock');
    const [exchange] = log.entries;
    expect(exchange!.request).toMatchObject({ method: 'POST', postData: { text: '{"name":42}' } });
    const sent = (exchange!.request.headers as Array<{ name: string; value: string }>).map((h) => [h.name.toLowerCase(), h.value]);
    expect(sent).toContainEqual(['idempotency-key', 'example-1']);
    expect(exchange!.response.status).toBe(422);
  });

  it('findings: the client project of examples/findings (vitest + the dashboard in Chromium) against the installed package (contract §5.1)', () => {
    const { status, output } = run('npm', ['test', '--silent'], project('findings'), { NO_COLOR: '1' });
    // Four client tests and the dashboard's, none skipped: Chromium is there wherever the dashboard tests run.
    expect(output).toMatch(/Tests\s+5 passed \(5\)/);
    expect(status).toBe(0);
  });

  // .ci/run installs Debian's python3-pytest when it is missing; elsewhere a machine without it skips.
  it.runIf(hasPytest || process.env.CI)('pytest: a session fixture starts the CLI as a sidecar would, a tenant per test', () => {
    const { status, output } = run('python3', ['-m', 'pytest', '-q'], project('pytest'));
    expect(output).toMatch(/\b3 passed\b/);
    expect(status).toBe(0);
  });
});
