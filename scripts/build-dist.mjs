/**
 * The build step after tsc:
 * - copies the generated fixture validator (plain JavaScript from `npm run generate`, which tsc does
 *   not copy) beside tsc's output;
 * - bundles the CLI into one file (dist/cli.js, replacing tsc's output for it). Loading one module
 *   instead of ~250 roughly halves the time from `npx creator-commerce-mock` to the first answer.
 * - bundles the library entry points the same way (dist/index.js and dist/vitest.js, replacing tsc's
 *   output for them, sharing one chunk so both see the same classes and state): a suite's first
 *   `import { createApp }` loaded ~250 files (about 1,000 ms against 430 ms bundled, side by side on
 *   a loaded VM). Their types stay tsc's declarations; vitest stays a peer, not bundled.
 * - bundles ajv and ajv-formats apart (dist/schema-compiler.cjs), which the CLI and the library
 *   read on their first schema compile (see `schemaCompilerApart` below).
 *
 * `--cli-only` bundles the CLI (and its schema-compiler.cjs) alone, without tsc having run: the test suite's global setup needs
 * only dist/cli.js (what `npx` and the image start), and skipping tsc there takes ~10 s off the
 * serial start of every `npm test`. The bundle is the same file either way.
 */
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliOnly = process.argv.includes('--cli-only');

if (!cliOnly) {
  // Chunk names carry a content hash: an earlier build's chunks would otherwise stay in dist/ and be packed.
  for (const file of readdirSync('dist')) if (/^chunk-.*\.js$/.test(file)) rmSync(`dist/${file}`);
  for (const ext of ['js', 'd.ts']) {
    copyFileSync(`src/fixture/fixture-validator.generated.${ext}`, `dist/fixture/fixture-validator.generated.${ext}`);
  }
}

// CommonJS dependencies inside an ES module bundle still call require().
const requireBanner = (name) => ({
  js: `import { createRequire as ${name} } from 'node:module';\nconst require = ${name}(import.meta.url);`,
});

// Three start-up costs of the bundles, each measured side by side with a bare Koa app
// (`npm run bench -- --only cold`), with what they saved of the CLI's ~290 ms then:

/**
 * 1. JSON files (mime-db, ~190 KB, loaded by Koa's content negotiation) as `JSON.parse('…')`
 * instead of esbuild's default object literal: V8 scans a string literal and JSON.parse builds the
 * object several times faster than it parses and runs the same data as code (V8's own advice for
 * large data), which is also what Node's require of a .json file does. About 20 ms.
 */
/** @type {import('esbuild').Plugin} */
const jsonAsParse = {
  name: 'json-as-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, (args) => {
      // Parsed and written again: minified, and a file that is not JSON fails the build here.
      const text = JSON.stringify(/** @type {unknown} */ (JSON.parse(readFileSync(args.path, 'utf8'))));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

/**
 * 2. One mime-db. Koa's `accepts` pins mime-types 2, which brings its own, older copy of mime-db
 * (1.52, beside the 1.54 of type-is' mime-types 3); both were parsed and indexed at every start.
 * The bundles resolve every `mime-db` to the newer one, a superset of the same format. The sandbox
 * never calls `ctx.accepts` (it reads Accept-Encoding itself), and `ctx.is`, which it calls, already
 * used 1.54. (koa-bodyparser's co-body has a third copy; nothing bundled imports it.) About 9 ms.
 */
/** @type {import('esbuild').Plugin} */
const oneMimeDb = {
  name: 'one-mime-db',
  setup(build) {
    const newest = fileURLToPath(import.meta.resolve('mime-db'));
    build.onResolve({ filter: /^mime-db$/ }, () => ({ path: newest }));
  },
};

/**
 * 3. ajv and ajv-formats (130 KB) in a file of their own, dist/schema-compiler.cjs, read on the
 * first schema compile instead of parsed at every start. The source loads them with a literal
 * `require()` where they are first needed (src/operations/require-here.ts); this resolves those
 * calls, and only those, to the separate file, whose path is relative to the bundle (`require` is
 * the banner's, made from the bundle's own URL). About 9 ms.
 */
const SCHEMA_COMPILER = 'schema-compiler.cjs';
/** @type {import('esbuild').Plugin} */
const schemaCompilerApart = {
  name: 'schema-compiler-apart',
  setup(build) {
    build.onResolve({ filter: /^(ajv|ajv-formats)$/ }, (args) =>
      args.kind === 'require-call' ? { path: args.path, namespace: 'schema-compiler' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'schema-compiler' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`./${SCHEMA_COMPILER}`)})[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
    build.onResolve({ filter: new RegExp(`^\\./${SCHEMA_COMPILER.replace('.', '\\.')}$`) }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

/** What every bundle here shares: Node 20, one file set, quiet unless something is wrong. */
const nodeBundle = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', allowOverwrite: true };
/** The libraries' minification: whitespace and syntax, names kept for users' stack traces. */
const libraryMinify = { minifyWhitespace: true, minifySyntax: true };

await build({
  ...nodeBundle,
  ...libraryMinify,
  stdin: { contents: `module.exports = { ajv: require('ajv'), 'ajv-formats': require('ajv-formats') };`, resolveDir: '.', loader: 'js' },
  outfile: `dist/${SCHEMA_COMPILER}`,
  format: 'cjs',
});

const plugins = [jsonAsParse, oneMimeDb, schemaCompilerApart];

if (!cliOnly)
  await build({
    ...nodeBundle,
    // Names kept (unlike the CLI's): a library's stack traces show up in its users' test failures.
    ...libraryMinify,
    entryPoints: ['src/index.ts', 'src/vitest.ts'],
    outdir: 'dist',
    // Chunks land in dist/ itself, beside the entries: src/package-dirs.ts resolves the package root as `..`.
    chunkNames: 'chunk-[hash]',
    splitting: true,
    format: 'esm',
    external: ['vitest'],
    banner: requireBanner('__libCreateRequire'),
    plugins,
  });

/**
 * The library for CommonJS consumers (`require('creator-commerce-mock')`, Jest without
 * --experimental-vm-modules): the same entry bundled as one CommonJS file, dist/index.cjs, the
 * `require` condition of the package's exports. `import.meta.url` (which src/package-dirs.ts and the
 * require-here helpers read) is the file's own URL, as in the ESM bundle. It is a second copy of the
 * library: a process that both imports and requires it has two, each with its own servers.
 */
if (!cliOnly)
  await build({
    ...nodeBundle,
    ...libraryMinify,
    entryPoints: ['src/index.ts'],
    outfile: 'dist/index.cjs',
    format: 'cjs',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins,
  });

await build({
  ...nodeBundle,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  format: 'esm',
  // DIST_MINIFY=0 keeps names and lines readable in a CPU profile of the CLI (bench/neighbours.ts).
  minify: process.env.DIST_MINIFY !== '0',
  // No `libraryMinify`: it wraps every function created at run time in a defineProperty call, Koa's
  // per-request closures included, which cost about a third of the CLI's throughput. Error classes
  // set their `name` themselves, and nothing else reads function names.
  banner: requireBanner('__cliCreateRequire'),
  plugins,
});

// The package's bin is executable as built: npm makes an installed bin executable when it links it,
// but `npx` in this folder may reuse a link made before a rebuild wrote the file afresh.
chmodSync('dist/cli.js', 0o755);
