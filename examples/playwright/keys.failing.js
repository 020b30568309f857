// Deliberately failing, to show what a failed test takes with it: the client sends a name the API
// refuses, and the test expected a 201. `npm run test:failure-demo` runs it (`npm test` does not),
// with the JSON reporter: failure-report.json holds the tenant's HAR, findings and snapshot as the
// failed test's attachments.
const { test, expect } = require('./fixtures');

test('creates an API key', async ({ request, tenant }) => {
  const res = await request.post('/v1/auth/keys', {
    headers: { ...tenant.headers, 'Idempotency-Key': 'example-1' },
    data: { name: 42 },
  });
  expect(res.status()).toBe(201);
});
