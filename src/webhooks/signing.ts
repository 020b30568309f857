/**
 * Standard Webhooks signing (contract §4.3) with the `standardwebhooks` package itself, so the
 * header format is the one its `verify` reads: `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`. Secrets are `whsec_` + base64 of 24 bytes, drawn from the sandbox's
 * seed and the endpoint id, so the same seed gives the same secrets without moving the id streams.
 */
import { Webhook } from 'standardwebhooks';
import { Prng } from '../random.js';

export const SECRET_PREFIX = 'whsec_';
/** What a secret given to `POST /__admin/webhook_endpoints` must look like: the prefix and base64 of at least 16 bytes. */
export const SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{22,}={0,2}$';

function seededSecret(...parts: string[]): string {
  const prng = new Prng(parts.join(':'));
  const bytes = Buffer.alloc(24);
  for (let i = 0; i < bytes.length; i++) bytes[i] = prng.nextUint32() & 0xff;
  return `${SECRET_PREFIX}${bytes.toString('base64')}`;
}

export function endpointSecret(seed: string, endpointId: string): string {
  return seededSecret('webhook-secret', seed, endpointId);
}

/** The secret `webhooks-badly-signed` signs with: well-formed, and never the endpoint's. */
export function wrongSecret(seed: string, endpointId: string): string {
  return seededSecret('webhook-wrong-secret', seed, endpointId);
}

/** The three Standard Webhooks headers of one attempt; `sentAt` is real time (receivers check it against their clock). */
export function signatureHeaders(secret: string, messageId: string, sentAt: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, sentAt, payload),
  };
}
