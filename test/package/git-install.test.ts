/**
 * Installing from git (README "Install"): npm clones the repository, installs its dependencies with
 * the dev ones and runs only `prepare` before packing it, so `prepare` must build dist/ or the
 * installed package has nothing to import. Installs the committed HEAD of this checkout.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type RunningCli } from '../support/cli.js';
import { npmEnv, probeInstalledLibrary } from '../support/installed-package.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const running: RunningCli[] = [];

afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
});

describe('installed from git (npm i git+file://…)', () => {
  it('builds on install: the library imports and the CLI starts', async () => {
    const project = path.join(mkdtempSync(path.join(tmpdir(), 'ccm-git-')), 'consumer');
    mkdirSync(project);
    execFileSync('npm', ['init', '-y'], { cwd: project, env: npmEnv });
    execFileSync('npm', ['install', '--save-dev', `git+file://${ROOT}`], { cwd: project, env: npmEnv, stdio: 'pipe' });
    const installed = path.join(project, 'node_modules', 'creator-commerce-mock');
    expect(readdirSync(path.join(installed, 'dist'))).toEqual(expect.arrayContaining(['cli.js', 'index.js', 'index.d.ts', 'vitest.js']));
    expect(probeInstalledLibrary(project)).toBe('422 validation_failed');
    const server = await startProcess(path.join(project, 'node_modules', '.bin', 'creator-commerce-mock'), ['--port', '0'], {}, project);
    running.push(server);
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 300_000);
});
