import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // Every /v1 response a test receives through the harness must match the OpenAPI document.
    setupFiles: ['test/support/contract-setup.ts'],
    // Tests drive the sandbox in-process with a frozen clock, so they never need long timeouts.
    testTimeout: 20_000,
  },
});
