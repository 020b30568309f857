// Deliberately failing: the client sends a name the API refuses, and the test expected a 201.
// useTenant attaches the tenant's HAR to the failed test: the exchange, headers and all.
import { expect, inject, it } from 'vitest';
import { connectToMock, useTenant } from 'creator-commerce-mock/vitest';

const mock = connectToMock(inject('creatorCommerceMock'));
const tenant = useTenant(mock);

it('creates an API key', async () => {
  const res = await fetch(`${mock.apiUrl}/auth/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'example-1' },
    body: JSON.stringify({ name: 42 }),
  });
  expect(res.status).toBe(201);
});
