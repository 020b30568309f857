/** What /openapi.json tells a receiver's author about the attempt deadline follows the sandbox's `webhookTimeout` (contract §4.3). */
import { describe, expect, it } from 'vitest';
import { client, makeApp } from '../support/harness.js';

async function webhookDescriptions(options: Parameters<typeof makeApp>[0]): Promise<string[]> {
  const res = await client(makeApp(options)).get('/openapi.json');
  expect(res.status).toBe(200);
  const webhooks = res.body.webhooks as Record<string, { post: { description: string } }>;
  return Object.values(webhooks).map((hook) => hook.post.description);
}

describe('/openapi.json webhooks: the attempt deadline said is the configured one', () => {
  it('contract §4.3: 10 s by default', async () => {
    const descriptions = await webhookDescriptions({});
    expect(descriptions.length).toBeGreaterThan(0);
    for (const text of descriptions) expect(text).toContain('Any 2xx answer within 10 s acknowledges it');
  });

  it.each([
    [250, '250 ms'],
    [1500, '1.5 s'],
    [60_000, '60 s'],
  ])('contract §4.3: webhookTimeout %d is said as %s, and 10 s is said nowhere', async (timeout, said) => {
    const descriptions = await webhookDescriptions({ webhookTimeout: timeout });
    for (const text of descriptions) {
      expect(text).toContain(`Any 2xx answer within ${said} acknowledges it`);
      expect(text).not.toContain('10 s');
    }
  });
});
