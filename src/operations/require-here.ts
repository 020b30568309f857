/**
 * Packages loaded on first use instead of at start-up (ajv and ajv-formats were ~10 ms
 * of the CLI's cold start, and a sandbox may answer many requests, GET /v1/status among them,
 * before it compiles its first schema). ES modules hoist every `import`, so such a package is
 * loaded with a literal `require('name')` where it is first needed:
 *
 *   typeof require === 'function' ? require('ajv') : requireHere('ajv')
 *
 * - Bundled (scripts/build-dist.mjs), esbuild replaces that literal call with the bundled copy of
 *   the package, evaluated where the call stands, and `require` is defined.
 * - Unbundled (tsx, vitest, tsc's output) an ES module has no `require`, so `requireHere` loads the
 *   same CommonJS package through Node.
 * Only CommonJS packages can be loaded so; both are.
 */
import { createRequire } from 'node:module';

export const requireHere: NodeJS.Require = createRequire(import.meta.url);
