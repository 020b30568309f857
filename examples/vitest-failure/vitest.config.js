import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['creator-commerce-mock/vitest'],
    // The default reporter prints the failure; the second keeps what useTenant attached to it.
    reporters: ['default', './failure-report.js'],
  },
});
