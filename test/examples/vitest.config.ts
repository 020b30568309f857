/**
 * The example suite's own config, as a client project would write it: one sandbox for the whole
 * run, started by the package's vitest globalSetup. The root config lists this file as a project,
 * so `npm test` runs it too; `npx vitest run --project examples` runs it alone.
 */
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples',
    include: ['**/*.test.ts'],
    environment: 'node',
    // A client project writes `globalSetup: ['creator-commerce-mock/vitest']` (or its own file, as here).
    globalSetup: ['./mock-setup.ts'],
  },
});
