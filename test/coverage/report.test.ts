/** Contract §5.2: `--report <file>`, findings and coverage written on SIGTERM, SIGINT and close(). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { summaryLines, writeReport } from '../../src/report/report.js';
import { createAppWithOperations } from '../../src/app.js';
import { FINDINGS_MODULE_NAME, type ReportFindingsSource } from '../../src/report/findings-source.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { WORLD_MODULES } from '../../src/sandbox/modules.js';
import type { WorldModule } from '../../src/sandbox/world-module.js';
import type { World } from '../../src/sandbox/world.js';
import { writeReportOnClose } from '../../src/server.js';
import { bearer, client, FROZEN_AT, KEYS, startServer } from '../support/harness.js';
import { startCli, type RunningCli } from '../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ccm-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
  vi.restoreAllMocks();
});

const finding = (rule: string, message: string) => ({ id: `fnd_${rule}`, rule, severity: 'error', section: 'spec §8', message });

/**
 * A stand-in for the findings world module: listed under its name, it gives the report what the
 * report's interface asks (src/report/findings-source.ts) and counts the requests it heard, so a
 * report shows the findings of the world it was written from.
 */
function fakeFindingsModule(): WorldModule<World> {
  return {
    name: FINDINGS_MODULE_NAME,
    create() {
      const heard: string[] = [];
      const instance: ReportFindingsSource & { requestFinished(exchange: { requestId: string }): void } = {
        requestFinished: (exchange) => void heard.push(exchange.requestId),
        reportFindings: () =>
          heard.length === 0
            ? []
            : [
                finding('retry-after-ignored', `waited 0.2 s of 5 (${heard.length} requests heard)`),
                finding('retry-after-ignored', 'again'),
                finding('rate-limit-exhausted', 'quota'),
              ],
      };
      return instance;
    },
  };
}

function readReport(file: string): { findings: unknown[]; coverage: Record<string, any> } {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('the report file (contract §5.2)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'contract §5.2: the CLI writes the report on %s before it exits, into a folder it makes',
    async (signal) => {
      const file = path.join(dir, `cli-${signal}`, 'nested', 'sandbox-report.json');
      running = await startCli(['--port', '0', '--clock', 'frozen', '--report', file]);
      const answer = await fetch(`${running.url}/v1/status`, { headers: bearer(KEYS.free) });
      expect(answer.status).toBe(200);
      running.child.kill(signal);
      expect(await running.exited).toBe(0);
      const report = readReport(file);
      expect(Object.keys(report)).toEqual(['findings', 'coverage']);
      expect(report.findings).toEqual([]);
      expect(report.coverage).toMatchObject({ object: 'coverage', account_id: null, summary: { operations_called: 1 } });
      const status = report.coverage.operations.find((op: any) => op.operation_id === 'getStatus');
      expect(status).toMatchObject({ calls: 1, statuses: { 200: 1 } });
    },
  );

  it('contract §5.2: MOCK_REPORT sets it from the environment; a directory is refused at start, naming the setting', () => {
    const file = path.join(dir, 'env.json');
    expect(parseCliSettings([], { MOCK_REPORT: file }).options.report).toBe(file);
    mkdirSync(path.join(dir, 'a-folder'), { recursive: true });
    expect(() => parseCliSettings(['--report', path.join(dir, 'a-folder')], {})).toThrow(ConfigError);
    expect(() => parseCliSettings(['--report', path.join(dir, 'a-folder')], {})).toThrow(/^--report: /);
  });

  it("contract §5.2: close() writes it once, with every account's coverage; a well-behaved client's report lists no findings", async () => {
    const file = path.join(dir, 'close.json');
    const mock = await startServer({ report: file });
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
    await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.paid) });
    await Promise.all([mock.close(), mock.close()]);
    const report = readReport(file);
    expect(report.findings).toEqual([]);
    expect(report.coverage.operations.find((op: any) => op.operation_id === 'getStatus').calls).toBe(2);
    expect(lines.filter((line) => line.startsWith('creator-commerce-mock report:'))).toEqual([]);
  });

  it('contract §5.1, §5.2: the shipped findings module fills the report: a 404 asked again is in it, with its line on stderr', async () => {
    const file = path.join(dir, 'real-findings.json');
    const app = createAppWithOperations({ clock: FROZEN_AT, report: file }, OPERATIONS);
    await client(app).get('/v1/jobs/job_missing').set(bearer(KEYS.free)).expect(404);
    await client(app).get('/v1/jobs/job_missing').set(bearer(KEYS.free)).expect(404);
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    writeReportOnClose(app);
    app.sandbox.world.close();
    const report = readReport(file);
    expect(report.findings).toEqual([expect.objectContaining({ object: 'finding', rule: 'non-retryable-retried', severity: 'warning' })]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^creator-commerce-mock report: non-retryable-retried \(warning, spec §7\.2\): 1 finding; first: /);
  });

  it('contract §5.2: the findings come from the world module named `findings` when the world has one, with a line per rule that fired on stderr', async () => {
    const file = path.join(dir, 'with-findings.json');
    const app = createAppWithOperations({ clock: FROZEN_AT, report: file }, OPERATIONS, [
      ...WORLD_MODULES.filter((module) => module.name !== FINDINGS_MODULE_NAME),
      fakeFindingsModule(),
    ]);
    await client(app).get('/v1/status').set(bearer(KEYS.free)).expect(200);
    await client(app).get('/v1/status').set(bearer(KEYS.paid)).expect(200);
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    writeReportOnClose(app);
    app.sandbox.world.close();
    const report = readReport(file);
    expect(report.findings).toHaveLength(3);
    expect(report.findings[0]).toMatchObject({ rule: 'retry-after-ignored', message: 'waited 0.2 s of 5 (2 requests heard)' });
    expect(report.coverage.operations.find((op: any) => op.operation_id === 'getStatus').calls).toBe(2);
    expect(lines).toEqual([
      'creator-commerce-mock report: retry-after-ignored (error, spec §8): 2 findings; first: waited 0.2 s of 5 (2 requests heard)\n',
      'creator-commerce-mock report: rate-limit-exhausted (error, spec §8): 1 finding; first: quota\n',
    ]);
  });

  it('contract §5.2: without findings nothing is printed; without `report` nothing is written', async () => {
    expect(summaryLines([])).toEqual([]);
    const file = path.join(dir, 'none', 'report.json');
    const mock = await startServer();
    await mock.close();
    expect(() => readFileSync(file)).toThrow();
    const written = writeReport(path.join(dir, 'direct.json'), { findings: () => [], coverage: () => ({ object: 'coverage' }) });
    expect(written).toEqual({ file: path.join(dir, 'direct.json'), findings: 0, lines: [] });
    expect(readReport(written.file)).toEqual({ findings: [], coverage: { object: 'coverage' } });
  });
});
