// One sandbox for the whole Jest run. Workers are started after this, so they inherit the URL.
const { startMockServer } = require('creator-commerce-mock');

module.exports = async () => {
  const mock = await startMockServer({ clock: 'frozen', seed: 7 });
  // globalSetup and globalTeardown share this global (the test files do not: they run in workers).
  globalThis.commerceMock = mock;
  process.env.COMMERCE_MOCK_URL = mock.url;
};
