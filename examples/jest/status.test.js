const { expectNoFindings } = require('creator-commerce-mock');
const { useTenant } = require('./tenant');

const tenant = useTenant({ plan: 'free' });

test('the status answers with a request id', async () => {
  const res = await fetch(`${tenant.apiUrl}/status`, { headers: { Authorization: `Bearer ${tenant.token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('request-id')).toBeTruthy();
});

test('a forced 429 carries Retry-After, for this tenant only', async () => {
  await tenant.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.account.id, times: 1, params: { retry_after: 9 } });
  const res = await fetch(`${tenant.apiUrl}/status`, { headers: { Authorization: `Bearer ${tenant.token}` } });
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('9');
});

// Findings (docs/findings.md): fails listing each rule the client broke, with its requests.
test('the client broke none of the service’s rules', () => expectNoFindings(tenant.handle));
