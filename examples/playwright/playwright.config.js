// Playwright Test starts the sandbox as its webServer, waits for its health route, and stops it at
// the end. API tests use the `request` fixture: no browser is needed (nor downloaded).
const { defineConfig } = require('@playwright/test');

const port = Number(process.env.COMMERCE_MOCK_PORT ?? 4010);

module.exports = defineConfig({
  testDir: '.',
  reporter: 'list',
  webServer: {
    command: `npx creator-commerce-mock --port ${port} --clock frozen --seed 7`,
    url: `http://127.0.0.1:${port}/__admin/health`,
    reuseExistingServer: !process.env.CI,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2000 },
  },
  use: { baseURL: `http://127.0.0.1:${port}` },
});
