import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { endpointSecret, signature, signatureHeaders } from '../../src/webhooks/signing.js';

describe('webhook signatures over the bytes sent', () => {
  it('contract §4.3: the signature is the one the standardwebhooks package computes, from a string or its UTF-8 bytes, and its verify accepts it', () => {
    const secret = endpointSecret('1', 'we_1');
    const sentAt = new Date('2026-01-01T00:00:00Z');
    for (const payload of ['{}', JSON.stringify({ name: 'clé — ключ 🔑', note: 'x'.repeat(300_000) })]) {
      const expected = new Webhook(secret).sign('evt_1', sentAt, payload);
      expect(signature(secret, 'evt_1', sentAt.getTime() / 1000, payload)).toBe(expected);
      expect(signature(secret, 'evt_1', sentAt.getTime() / 1000, Buffer.from(payload))).toBe(expected);
      const headers = signatureHeaders(secret, 'evt_1', new Date(), Buffer.from(payload));
      expect(() => new Webhook(secret).verify(payload, headers)).not.toThrow();
    }
  });
});
