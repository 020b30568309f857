/**
 * The build step after tsc:
 * - copies the generated fixture validator (plain JavaScript from `npm run generate`, which tsc does
 *   not copy) beside tsc's output;
 * - bundles the CLI into one file (dist/cli.js, replacing tsc's output for it). Loading one module
 *   instead of ~250 roughly halves the time from `npx creator-commerce-mock` to the first answer.
 * - bundles the library entry points the same way (dist/index.js and dist/vitest.js, replacing tsc's
 *   output for them, sharing one chunk so both see the same classes and state): a suite's first
 *   `import { createApp }` loaded ~250 files (about 1,000 ms against 430 ms bundled, side by side on
 *   a loaded VM; issue 16). Their types stay tsc's declarations; vitest stays a peer, not bundled.
 *
 * `--cli-only` bundles the CLI alone, without tsc having run: the test suite's global setup needs
 * only dist/cli.js (what `npx` and the image start), and skipping tsc there takes ~10 s off the
 * serial start of every `npm test` (issue 14.5). The bundle is the same file either way.
 */
import { copyFileSync } from 'node:fs';
import { build } from 'esbuild';

const cliOnly = process.argv.includes('--cli-only');

if (!cliOnly) {
  for (const ext of ['js', 'd.ts']) {
    copyFileSync(`src/fixture/fixture-validator.generated.${ext}`, `dist/fixture/fixture-validator.generated.${ext}`);
  }
}

// CommonJS dependencies inside an ES module bundle still call require().
const requireBanner = (name) => ({
  js: `import { createRequire as ${name} } from 'node:module';\nconst require = ${name}(import.meta.url);`,
});

if (!cliOnly)
  await build({
    entryPoints: ['src/index.ts', 'src/vitest.ts'],
    outdir: 'dist',
    // Chunks land in dist/ itself, beside the entries: src/package-dirs.ts resolves the package root as `..`.
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    // Names kept (unlike the CLI's): a library's stack traces show up in its users' test failures.
    minifyWhitespace: true,
    minifySyntax: true,
    external: ['vitest'],
    allowOverwrite: true,
    banner: requireBanner('__libCreateRequire'),
  });

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
  banner: requireBanner('__cliCreateRequire'),
});
