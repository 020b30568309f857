/**
 * Standard Webhooks signing (contract §4.3), in the header format the `standardwebhooks` package's
 * `verify` reads: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 * Secrets are `whsec_` + base64 of 24 bytes, drawn from the sandbox's seed and the endpoint id, so
 * the same seed gives the same secrets without moving the id streams.
 */
import { createHmac } from 'node:crypto';
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

/**
 * The `webhook-signature` value: `v1,` and the base64 HMAC-SHA256, keyed with the secret's bytes (the
 * base64 after `whsec_`), of `<id>.<timestamp>.<body>`: what the `standardwebhooks` package's `sign`
 * computes (its `verify` reads it; test/webhooks checks both agree), but over the body's bytes as they
 * are sent: the package first joins the three into one string and encodes it, two more copies of a
 * megabyte payload.
 */
export function signature(secret: string, messageId: string, timestampSeconds: number, body: string | Buffer): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.`).update(body).digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt; `sentAt` is real time (receivers check it against their clock). */
export function signatureHeaders(secret: string, messageId: string, sentAt: Date, body: string | Buffer): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, messageId, timestamp, body),
  };
}
