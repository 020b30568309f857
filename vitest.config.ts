import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // Tests drive the sandbox in-process with a frozen clock, so they never need long timeouts.
    testTimeout: 20_000,
  },
});
