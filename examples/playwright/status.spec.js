const { test: it, expect } = require('./fixtures');

it('the status answers', async ({ request, tenant }) => {
  const res = await request.get('/v1/status', { headers: tenant.headers });
  expect(res.status()).toBe(200);
  expect(res.headers()['request-id']).toBeTruthy();
});

it('a server error on demand, for this tenant only', async ({ request, tenant }) => {
  await request.post('/__admin/scenarios', { data: { name: 'server-error', account_id: tenant.id, times: 1 } });
  const res = await request.get('/v1/status', { headers: tenant.headers });
  expect(res.status()).toBe(500);
  expect((await res.json()).error.code).toBe('internal_error');
});
