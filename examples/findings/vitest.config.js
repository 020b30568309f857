import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Inside the creator-commerce-mock repository (whose `npm test` runs this project) the package is
// its own sources; a project that installed the package has no such folder and needs no alias.
const sources = fileURLToPath(new URL('../../src/', import.meta.url));
const inRepository = existsSync(`${sources}vitest.ts`);
const entry = inRepository ? `${sources}vitest.ts` : 'creator-commerce-mock/vitest';

export default defineConfig({
  resolve: inRepository ? { alias: { 'creator-commerce-mock/vitest': entry } } : {},
  test: {
    name: 'findings-example',
    // This folder, also when the repository's config runs it as one of its projects.
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.js'],
    // One sandbox for the whole run; each test file makes its own tenant (useTenant).
    globalSetup: [entry],
    // The browser test launches Chromium: generous limits that only a hang reaches.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
