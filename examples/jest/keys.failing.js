// Deliberately failing, to show what a failed test leaves behind: the client sends a name the API
// refuses, and the test expected a 201. `npm run test:failure-demo` runs it (`npm test` does not);
// jest-environment.js then writes the tenant's HAR (the exchange, headers and all), findings and
// snapshot into .creator-commerce-mock/failures/keys.failing.js/creates-an-API-key/.
const { useTenant } = require('./tenant');

const tenant = useTenant({ plan: 'free' });

test('creates an API key', async () => {
  const res = await fetch(`${tenant.apiUrl}/auth/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'example-1' },
    body: JSON.stringify({ name: 42 }),
  });
  expect(res.status).toBe(201);
});
