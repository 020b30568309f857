/**
 * Contract §4.3: deliveries follow Standard Webhooks, so svix's own verifier (which reads the
 * unbranded `webhook-*` headers and `whsec_` secrets) accepts a genuine delivery and refuses a
 * badly signed one, as README "Testing your webhook receiver" says.
 */
import { Webhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.js';
import { ACCOUNTS, sandbox } from './support.js';

describe('svix verifies the sandbox’s deliveries (contract §4.3)', () => {
  it('accepts a real delivery, byte for byte, and refuses one the webhooks-badly-signed scenario signed', async () => {
    const receiver = await startReceiver();
    try {
      const s = sandbox();
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      await s.endpoint(receiver.url, { secret });
      const event = (await s.trigger('inbox.updated')).body as { id: string };
      await s.advance(0);
      const [genuine] = await receiver.received(1);
      // svix 2 returns nothing: it throws on a bad signature, and the body is parsed apart.
      expect(() => new Webhook(secret).verify(genuine!.body, genuine!.headers)).not.toThrow();
      expect(genuine!.json.id).toBe(event.id);

      await s.api.post('/__admin/scenarios').send({ name: 'webhooks-badly-signed', account_id: ACCOUNTS.free, times: 1 });
      await s.trigger('inbox.updated');
      await s.advance(0);
      const [, forged] = await receiver.received(2);
      expect(() => new Webhook(secret).verify(forged!.body, forged!.headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });
});
