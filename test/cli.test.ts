/** Contract §1: starting it from the command line. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/config/settings.js';
import { runCli, startCli, type RunningCli } from './support/cli.js';

let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

function tempFixture(content: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-fixture-'));
  const file = path.join(dir, 'broken.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('contract §1: the CLI', () => {
  it('prints usage listing every flag and its environment variable, and exits 0 on --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const setting of SETTINGS) expect(result.stdout).toContain(`--${setting.flag}`);
    for (const setting of SETTINGS) expect(result.stdout).toContain(setting.env);
    // Contract §1's names, written out on purpose: a deliberate change detector (the loops above read the table).
    for (const name of [
      '--port',
      'PORT',
      '--host',
      'HOST',
      '--fixtures',
      'MOCK_FIXTURES',
      '--scenario',
      'MOCK_SCENARIOS',
      '--seed',
      'MOCK_SEED',
      '--clock',
      'MOCK_CLOCK',
      '--admin-token',
      'MOCK_ADMIN_TOKEN',
      '--rate-limit',
      'MOCK_RATE_LIMIT',
    ]) {
      expect(result.stdout).toContain(name);
    }
  });

  it('prints `listening on <url>` with the real bound port as its first line when started with --port 0', async () => {
    running = await startCli(['--port', '0', '--clock', 'frozen']);
    expect(running.firstLine).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(running.url).not.toMatch(/:0$/);
    const res = await fetch(`${running.url}/v1/status`, { headers: { Authorization: 'Bearer cc_test_free_default_key' } });
    expect(res.status).toBe(200);
  });

  it.each([
    [['--port', 'abc'], {}, /^creator-commerce-mock: --port: /],
    [['--port', '70000'], {}, /--port/],
    [[], { PORT: 'not-a-port' }, /^creator-commerce-mock: PORT: /],
    [['--clock', 'yesterday'], {}, /--clock/],
    [['--clock', '2026-02-30T00:00:00Z'], {}, /--clock/],
    [[], { MOCK_CLOCK: 'sometimes' }, /MOCK_CLOCK/],
    [['--rate-limit', 'fast'], {}, /--rate-limit/],
    [[], { MOCK_RATE_LIMIT: 'free=0' }, /MOCK_RATE_LIMIT/],
    [['--no-such-flag'], {}, /--no-such-flag/],
    [['--fixtures', 'no-such-fixture'], {}, /no-such-fixture\.json.*file not found/],
  ])('exits 2 with one line naming the bad setting for %j %j', async (args, env, pattern) => {
    const result = await runCli(args as string[], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });

  it('exits 2 naming the fixture file and the JSON path inside it when a fixture is invalid', async () => {
    const file = tempFixture({
      description: 'broken',
      accounts: [{ id: 'acct_x', name: 'X', plan: 'gold', api_keys: [] }],
      template: { credits: { free: 1, paid: 1 }, counts: {} },
    });
    const result = await runCli(['--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('broken.json');
    expect(result.stderr).toContain('/accounts/0/plan');
    expect(result.stderr).toContain('free, paid');
  });

  it('exits 2 with one line naming the file and the path of a bad pinned field (contract §1)', async () => {
    const file = tempFixture({
      description: 'broken',
      accounts: [
        {
          id: 'acct_x',
          name: 'X',
          plan: 'free',
          api_keys: [],
          pinned: {
            forms: [
              {
                id: 'frm_x',
                fields: [
                  { field_type: 'email', label: 'Email' },
                  { field_type: 'select', label: 'Pick' },
                ],
              },
            ],
          },
        },
      ],
      template: { credits: { free: 1, paid: 1 }, counts: {} },
    });
    const result = await runCli(['--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /broken\.json at \/accounts\/0\/pinned\/forms\/0\/fields\/1\/options: a select field needs at least one option/,
    );
  });

  it('exits 2 naming the file when a fixture is not JSON', async () => {
    const result = await runCli(['--fixtures', tempFixture('{ nope')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.json.*not valid JSON/);
  });

  it('lets flags win over the environment', async () => {
    running = await startCli(['--port', '0', '--seed', '5'], { MOCK_SEED: 'abc', PORT: '1' });
    expect(running.firstLine).toContain('seed 5');
  });

  it('reads settings from the environment', async () => {
    running = await startCli([], { PORT: '0', MOCK_CLOCK: '2026-03-01T00:00:00Z', MOCK_SEED: '9' });
    expect(running.firstLine).toContain('seed 9');
    const clock = await (await fetch(`${running.url}/__admin/clock`)).json();
    expect(clock).toEqual({ now: '2026-03-01T00:00:00.000Z', mode: 'frozen' });
  });

  // No wall-clock budget here (a loaded machine misses it); the CLI's own 2 s forced
  // exit is its code's business, and a hang fails the test by its timeout.
  it.each(['SIGTERM', 'SIGINT'] as const)('closes gracefully and exits 0 on %s', async (signal) => {
    running = await startCli(['--port', '0']);
    running.child.kill(signal);
    const code = await running.exited;
    expect(code).toBe(0);
  });

  it('lets an in-flight request finish before exiting on SIGTERM', async () => {
    running = await startCli(['--port', '0']);
    const { hostname, port } = new URL(running.url);
    const body = JSON.stringify({ name: 'in flight' });
    // The request is in flight when the signal arrives: headers and half the body sent, the rest after.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          hostname,
          port,
          method: 'POST',
          path: '/v1/auth/keys',
          headers: {
            Authorization: 'Bearer cc_test_free_default_key',
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        running!.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 150);
      }, 150);
    });
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).name).toBe('in flight');
    expect(await running.exited).toBe(0);
  });
});
