// One tenant per test: an account of its own, deleted afterwards. When the test did not end as
// expected, its tenant's HAR, findings and snapshot are attached to its result first
// (`testInfo.attach`): the HTML report shows them, the JSON report holds them, CI keeps them.
const { test: base, expect } = require('@playwright/test');
const { AdminClient, attachFailureArtifacts } = require('creator-commerce-mock');

const test = base.extend({
  tenant: async ({ request, baseURL }, use, testInfo) => {
    const created = await (await request.post('/__admin/accounts', { data: { plan: 'free' } })).json();
    await use({ id: created.account.id, headers: { Authorization: `Bearer ${created.api_key.token}` } });
    await attachFailureArtifacts(new AdminClient(baseURL), created.account.id, testInfo);
    await request.delete(`/__admin/accounts/${created.account.id}`);
  },
});

module.exports = { test, expect };
