// One tenant (an isolated account) per test file: files run in parallel workers and never see each
// other's records, rate-limit counters, scenarios or clock.
const { AdminClient } = require('creator-commerce-mock');

const admin = new AdminClient(process.env.COMMERCE_MOCK_URL);

function useTenant(options = { plan: 'free' }) {
  const tenant = { admin, apiUrl: `${process.env.COMMERCE_MOCK_URL}/v1` };
  // jest-environment.js finds it here when a test fails, and saves what the tenant saw.
  globalThis.commerceMockTenant = tenant;
  beforeAll(async () => {
    const created = await admin.accounts.create(options);
    tenant.account = created.account;
    tenant.token = created.api_key.token;
    // The typed handle: `tenant.handle.findings()`, `tenant.handle.clock.advance(60)`.
    tenant.handle = created;
  });
  afterAll(() => admin.accounts.delete(tenant.account.id));
  return tenant;
}

module.exports = { useTenant };
