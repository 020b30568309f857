const { useTenant } = require('./tenant');

const tenant = useTenant({ plan: 'paid', clock: 'frozen' });

test('a crawl job completes when the tenant’s own clock is advanced', async () => {
  const headers = { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${tenant.apiUrl}/web/crawl`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: 'https://example.com' }),
  });
  expect(created.status).toBe(201);
  const job = await created.json();
  await tenant.admin.accounts.clock(tenant.account.id).advance(3600);
  const polled = await fetch(`${tenant.apiUrl}/jobs/${job.id}`, { headers });
  expect((await polled.json()).status).toBe('completed');
});
