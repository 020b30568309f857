/**
 * The build step after tsc:
 * - copies the generated fixture validator (plain JavaScript from `npm run generate`, which tsc does
 *   not copy) beside tsc's output;
 * - bundles the CLI into one file (dist/cli.js, replacing tsc's output for it). Loading one module
 *   instead of ~250 roughly halves the time from `npx creator-commerce-mock` to the first answer.
 * The library entry points (dist/index.js, dist/vitest.js) stay tsc's output, with their types.
 *
 * `--cli-only` bundles the CLI alone, without tsc having run: the test suite's global setup needs
 * only dist/cli.js (what `npx` and the image start), and skipping tsc there takes ~10 s off the
 * serial start of every `npm test` (issue 14.5). The bundle is the same file either way.
 */
import { copyFileSync } from 'node:fs';
import { build } from 'esbuild';

if (!process.argv.includes('--cli-only')) {
  for (const ext of ['js', 'd.ts']) {
    copyFileSync(`src/fixture/fixture-validator.generated.${ext}`, `dist/fixture/fixture-validator.generated.${ext}`);
  }
}

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  minify: true,
  // No `keepNames`: it wraps every function created at run time in a defineProperty call, Koa's
  // per-request closures included, which cost about a third of the CLI's throughput. Error classes
  // set their `name` themselves, and nothing else reads function names.
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: {
    js: "import { createRequire as __cliCreateRequire } from 'node:module';\nconst require = __cliCreateRequire(import.meta.url);",
  },
});
