/**
 * What the package tests run against an install of the package in an empty project: npm as they run
 * it, and a probe of the installed library (a server started through its import, a body refused by
 * validation, so the separately bundled schema compiler is read too).
 */
import { execFileSync } from 'node:child_process';

/** npm as the tests and the replayed image build run it: from the cache where it can, quietly. */
export const npmEnv: NodeJS.ProcessEnv = {
  ...process.env,
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_loglevel: 'error',
};

/** Imports the package installed in `project`, starts a server and sends it an invalid crawl: `422 validation_failed`. */
export function probeInstalledLibrary(project: string): string {
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      [
        "const { startMockServer } = await import('creator-commerce-mock');",
        'const mock = await startMockServer({ port: 0 });',
        "const res = await fetch(mock.apiUrl + '/web/crawl', { method: 'POST', headers: { Authorization: 'Bearer cc_test_paid_default_key', 'Content-Type': 'application/json' }, body: '{\"url\":5}' });",
        'console.log(res.status, (await res.json()).error.code);',
        'await mock.close();',
      ].join('\n'),
    ],
    { cwd: project, encoding: 'utf8' },
  ).trim();
}
