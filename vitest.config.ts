import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    // Both cores of the 2-core machines this runs on (vitest's default left one idle here): measured
    // idle, `npx vitest run` 138 s with the default against 114 s with 2. No test depends on speed,
    // so a busy machine only makes the run longer (timeouts below catch hangs, not slowness).
    maxWorkers: 2,
    // Longest files first, also on a clean clone whose vitest cache is empty (see the sequencer).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'sandbox',
          include: ['test/**/*.test.ts'],
          // The example suite is its own project, with its own globalSetup (below).
          // The image-build replay is its own project (below), run by `npm run test:package` in .ci/run.
          exclude: [
            'test/examples/**',
            'test/package/tarball.test.ts',
            'test/package/git-install.test.ts',
            'test/package/recipes.test.ts',
            'node_modules/**',
          ],
          environment: 'node',
          // Test files share each worker's module cache instead of importing src/ afresh per file:
          // side by side on a loaded 2-core machine (\`/usr/bin/time npx vitest run --project sandbox\`)
          // 179 s of CPU against 292 s, import time 12 s against 80 s, the same 1,093 tests passing.
          // Sound because every test builds its own app (createApp/startMockServer): no test reads
          // state another file left in a module, and spies are restored where they are set.
          isolate: false,
          globalSetup: ['test/global-setup.ts', 'test/temp-root.ts'],
          // Every /v1 response a test receives through the harness must match the OpenAPI document.
          setupFiles: ['test/support/contract-setup.ts'],
          // Timeouts only catch hangs; no assertion depends on speed. They are generous so
          // that a machine whose other core is busy still passes: hooks and tests that do real work
          // (start a CLI, build a fixture world) can take several times their idle duration. The
          // heaviest (1 GB of bodies through the budgets, the soaks, npx's start and stop) took over
          // 60 s at a load average of 20 on 2 cores while passing alone in 35–115 s: 180 s.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Every success body written by a compiled serializer is checked against JSON.stringify
          // (src/operations/serializer.ts): a body that strays from its schema fails its test.
          env: { CCM_VERIFY_SERIALIZATION: '1' },
        },
      },
      {
        test: {
          // The package as users get it: the Dockerfile's build stage replayed (npm ci, build,
          // npm pack), the tarball installed, started and type-checked by a strict consumer. About 40 s of
          // CPU in child processes, a quarter of the whole suite's, so `npm test` leaves it to
          // `npm run test:package`, which .ci/run runs after it on every clean clone.
          name: 'package',
          include: ['test/package/tarball.test.ts', 'test/package/git-install.test.ts', 'test/package/recipes.test.ts'],
          environment: 'node',
          globalSetup: ['test/temp-root.ts'],
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      // How a client project uses the sandbox from a vitest globalSetup (README "Scenarios").
      'test/examples/vitest.config.ts',
      // A client project using findings in vitest and in the dashboard (docs/findings.md), as written outside this repository.
      'examples/findings/vitest.config.js',
    ],
  },
});
