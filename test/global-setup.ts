/**
 * Builds dist/ once per test run: the CLI tests start the real built binary (what `npx` and the
 * Docker image run), not the TypeScript sources.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildOnce(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // The same two steps as `npm run build`: tsc for the library, esbuild for the bundled CLI.
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-dist.mjs'], { cwd: root, stdio: 'inherit' });
}
