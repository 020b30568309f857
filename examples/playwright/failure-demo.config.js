// The recipe's config, running only the deliberately failing test, with a JSON report beside the list.
const { defineConfig } = require('@playwright/test');
const config = require('./playwright.config.js');

module.exports = defineConfig({
  ...config,
  testMatch: '**/*.failing.js',
  reporter: [['list'], ['json', { outputFile: 'failure-report.json' }]],
});
