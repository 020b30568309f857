/**
 * The test-runner recipes of examples/ (README "Running it in CI and test runners"), each run as the
 * client project it is: copied into an empty folder, this package linked into its node_modules as
 * `npm link` would, and its own test command run. The package is built first (`npm run build`), so
 * the recipes use dist/ as a consumer gets it: the ESM bundle, the CommonJS bundle and the CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'ccm-recipes-'));

beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
}, 300_000);

/** examples/<name> copied into an empty folder, with this package installed as a link. */
function project(name: string): string {
  const dir = path.join(work, name);
  cpSync(path.join(ROOT, 'examples', name), dir, { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'creator-commerce-mock'), 'dir');
  symlinkSync(path.join(ROOT, 'dist', 'cli.js'), path.join(dir, 'node_modules', '.bin', 'creator-commerce-mock'));
  return dir;
}

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;

describe('test-runner recipes (examples/)', () => {
  it('node:test, ESM: a server per file, a tenant per file, a forced 429', () => {
    const { status, output } = run('npm', ['test', '--silent'], project('node-test'));
    expect(output).toMatch(/# pass 2\b/);
    expect(output).toMatch(/# fail 0\b/);
    expect(status).toBe(0);
  });

  it('CommonJS: require() loads the package (its `require` export), no flag needed', () => {
    const { status, output } = run('npm', ['test', '--silent'], project('commonjs'));
    expect(output).toMatch(/# pass 1\b/);
    expect(output).toMatch(/# fail 0\b/);
    expect(status).toBe(0);
  });

  // .ci/run installs Debian's python3-pytest when it is missing; elsewhere a machine without it skips.
  it.runIf(hasPytest || process.env.CI)('pytest: a session fixture starts the CLI as a sidecar would, a tenant per test', () => {
    const { status, output } = run('python3', ['-m', 'pytest', '-q'], project('pytest'));
    expect(output).toMatch(/\b3 passed\b/);
    expect(status).toBe(0);
  });
});
