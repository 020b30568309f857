/**
 * The test-runner recipes of examples/ (README "Running it in CI and test runners"), each run as the
 * client project it is: copied into an empty folder, this package linked into its node_modules as
 * `npm link` would, and its own test command run. The package is built first (`npm run build`), so
 * the recipes use dist/ as a consumer gets it: the ESM bundle, the CommonJS bundle and the CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
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
 * examples/<name> copied into an empty folder, with this package and the recipe's other
 * devDependencies (a runner: jest, @playwright/test) installed as links to ours, bins included.
 */
function project(name: string): string {
  const dir = path.join(work, name);
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

  // .ci/run installs Debian's python3-pytest when it is missing; elsewhere a machine without it skips.
  it.runIf(hasPytest || process.env.CI)('pytest: a session fixture starts the CLI as a sidecar would, a tenant per test', () => {
    const { status, output } = run('python3', ['-m', 'pytest', '-q'], project('pytest'));
    expect(output).toMatch(/\b3 passed\b/);
    expect(status).toBe(0);
  });
});
