import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { client, makeApp } from '../support/harness.js';

const REDOCLY_CLI = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

/**
 * Offline and quiet: no usage telemetry, no update check against the registry. The CLI also skips
 * the update check when CI is set or stderr is not a terminal, as here; the variables say it anyway.
 */
const OFFLINE_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

// Linting is a child process: about two seconds idle. The timeout is a safety net, not a budget.
const LINT_TIMEOUT_MS = 120_000;

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer?: string }>;
}

describe('Redocly lint of GET /openapi.json', () => {
  // Its own folder as working directory, so no redocly.yaml of the project or its parents applies.
  const dir = mkdtempSync(join(tmpdir(), 'ccm-redocly-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'the recommended ruleset reports no error and no warning',
    async () => {
      const served = await client(makeApp()).get('/openapi.json');
      writeFileSync(join(dir, 'openapi.json'), served.text);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [REDOCLY_CLI, 'lint', 'openapi.json', '--extends=recommended', '--format=json', '--max-problems=10000'],
        { cwd: dir, env: { ...process.env, ...OFFLINE_ENV }, maxBuffer: 64 * 1024 * 1024 },
      );
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    LINT_TIMEOUT_MS,
  );
});
