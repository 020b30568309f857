/**
 * Issue "ship it": the package as users get it. Machines here have no Docker engine, so the image's
 * runtime stage is reproduced step for step (packed tarball + production dependencies from the lock
 * file, started as the image starts it), and `npx` is run from the tarball installed in an empty folder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess, type RunningCli } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'ccm-package-'));
let tarball = '';
const running: RunningCli[] = [];

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

beforeAll(() => {
  // dist/ was built by the global setup; --ignore-scripts keeps prepack from rebuilding it under other tests.
  const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  tarball = path.join(work, JSON.parse(out)[0].filename);
}, 120_000);

afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
});

describe('the packed tarball', () => {
  it('ships the built CLI, types, fixtures and scenarios, and no sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/dist/cli.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/dist/vitest.js');
    expect(listing).toContain('package/fixtures/default.json');
    expect(listing.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
  });

  it('runs as the Docker image does: production dependencies only, 0.0.0.0:PORT, health, clean SIGTERM', async () => {
    const app = path.join(work, 'image');
    mkdirSync(app);
    execFileSync('tar', ['-xzf', tarball, '-C', app, '--strip-components=1']);
    cpSync(path.join(ROOT, 'package-lock.json'), path.join(app, 'package-lock.json'));
    npm(['ci', '--omit=dev', '--ignore-scripts'], app);
    expect(existsSync(path.join(app, 'node_modules', 'koa'))).toBe(true);
    expect(existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'typescript'))).toBe(false);

    const server = await startProcess(process.execPath, ['dist/cli.js'], { HOST: '0.0.0.0', PORT: '0', NODE_ENV: 'production' }, app);
    running.push(server);
    // Issue 13.3: the line says what is bound; http://0.0.0.0:PORT is also connectable on Linux.
    expect(server.firstLine).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+/);
    const health = await fetch(`${server.url}/__admin/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const status = await fetch(`${server.url}/v1/status`, { headers: { Authorization: 'Bearer cc_test_paid_default_key' } });
    expect(status.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 180_000);

  it('starts with npx from the tarball installed in an empty folder', async () => {
    const project = path.join(work, 'consumer');
    mkdirSync(project);
    npm(['init', '-y'], project);
    npm(['install', '--omit=dev', tarball], project);
    expect(readdirSync(path.join(project, 'node_modules', '.bin'))).toContain('creator-commerce-mock');
    const help = execFileSync('npx', ['--no-install', 'creator-commerce-mock', '--help'], { cwd: project, encoding: 'utf8' });
    expect(help).toMatch(/^Usage: creator-commerce-mock/);
    // The long-running server is started through the bin link npx resolves to, so the signal below
    // reaches the CLI itself rather than npm's wrapper shell.
    const bin = path.join(project, 'node_modules', '.bin', 'creator-commerce-mock');
    const server = await startProcess(bin, ['--port', '0'], {}, project);
    running.push(server);
    const res = await fetch(`${server.url}/v1/status`, { headers: { Authorization: 'Bearer cc_test_free_default_key' } });
    expect(res.status).toBe(200);
    // The typed exports resolve from the installed package.
    const probe = execFileSync(process.execPath, ['--input-type=module', '-e', "import('creator-commerce-mock').then(m => console.log(typeof m.startMockServer, typeof m.createApp)); import('creator-commerce-mock/vitest').then(m => console.log(typeof m.default))"], { cwd: project, encoding: 'utf8' });
    expect(probe.split('\n').sort().join(' ').trim()).toBe('function function function');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 180_000);
});
