/**
 * Bundles dist/cli.js once per test run: the CLI tests start the real built binary (what `npx` and the
 * Docker image run), not the TypeScript sources. Only the bundle: no test reads tsc's output in dist/
 * (the package tests build their own, replaying the Dockerfile), so the ~10 s of tsc is not paid
 * before the first test starts. `npm run typecheck` and the package tests cover tsc.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildOnce(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build-dist.mjs', '--cli-only'], { cwd: root, stdio: 'inherit' });
}
