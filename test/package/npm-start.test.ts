/**
 * `npm start` is how the README starts the sandbox, and `kill <pid of npm start>` is how
 * a CI script or a process manager stops it. The signal must reach the server: an orphaned Node
 * would keep the port and answer the next job's requests.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, type RunningCli } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every process below `pid` (children, grandchildren…), from one `ps` listing. */
function descendantsOf(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = rows.filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...frontier);
  }
  return found;
}

/** Running, as opposed to gone or exited and not yet reaped (a zombie). */
function isAlive(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}

let leftovers: number[] = [];
afterEach(() => {
  // A failing run must not leave a server behind for the rest of the suite.
  for (const pid of leftovers.filter(isAlive)) process.kill(pid, 'SIGKILL');
  leftovers = [];
});

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the npm process stops the server: its output ends, the port closes, no process is left',
    async (signal) => {
      // dist/ is prebuilt by the global setup; ignore-scripts skips `prestart` (the build) and runs the
      // start script itself, as npm runs it (through `sh -c`). --silent keeps npm's banner off stdout.
      const npm: RunningCli = await startProcess(
        'npm',
        ['start', '--silent', '--', '--port', '0'],
        { npm_config_ignore_scripts: 'true', npm_config_update_notifier: 'false' },
        ROOT,
      );
      leftovers = descendantsOf(npm.child.pid!);
      expect(leftovers.length).toBeGreaterThan(0);
      expect((await fetch(`${npm.url}/__admin/health`)).status).toBe(200);
      // Contract §4.4: the built package serves the dashboard too, the bundle inlined (no dist/ file read).
      const ui = await fetch(`${npm.url}/__admin/ui`);
      expect([ui.status, (await ui.text()).includes('<script>')]).toEqual([200, true]);

      // stdout is a pipe shared by npm, its shell and the server: it closes when the last of them exits.
      const outputClosed = new Promise<void>((resolve) => npm.child.stdout.once('close', () => resolve()));
      npm.child.kill(signal);
      await npm.exited;
      await outputClosed;
      expect(npm.output()).toContain(`stopped (${signal})`);
      expect(leftovers.filter(isAlive)).toEqual([]);
      await expect(fetch(`${npm.url}/__admin/health`)).rejects.toThrow();
    },
  );
});

describe('npx', () => {
  // SIGINT alone to npm is ignored by npm itself (it waits for its child, which a terminal's Ctrl-C
  // reaches through the process group): README "npx" says so. SIGTERM makes npm exit without passing it on.
  it.each(['SIGTERM'] as const)(
    'contract §1: %s to the npx process stops the server it started (npm does not pass it through its shell)',
    async (signal) => {
      // In the package's own folder npx runs the package's bin (dist/ prebuilt by the global setup).
      const npx: RunningCli = await startProcess(
        'npx',
        ['--offline', 'creator-commerce-mock', '--port', '0'],
        { npm_config_update_notifier: 'false' },
        ROOT,
      );
      leftovers = descendantsOf(npx.child.pid!);
      const server = leftovers.at(-1)!;
      expect((await fetch(`${npx.url}/__admin/health`)).status).toBe(200);
      const outputClosed = new Promise<void>((resolve) => npx.child.stdout.once('close', () => resolve()));
      npx.child.kill(signal);
      await npx.exited;
      // The server notices that npx is gone and closes as on SIGTERM: the shared stdout closes when it exits.
      await outputClosed;
      expect(npx.output()).toContain('stopped (npx exited)');
      expect(isAlive(server)).toBe(false);
      await expect(fetch(`${npx.url}/__admin/health`)).rejects.toThrow();
    },
  );
});
