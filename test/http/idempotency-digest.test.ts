import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, payloadDigest } from '../../src/http/idempotency.js';

/** The digest as the payload's whole canonical text, joined, then hashed: what the streamed digest must equal. */
const joined = (method: string, path: string, query: unknown, body: unknown): string =>
  createHash('sha256')
    .update([method, path, canonicalJson(query), canonicalJson(body)].join('\n'))
    .digest('base64');

describe('the Idempotency-Key payload digest, fed to the hash piece by piece', () => {
  it('spec §8: equals the SHA-256 of the joined canonical text, for long strings with and without characters JSON escapes', () => {
    const long = 'x'.repeat(100_000);
    const bodies: unknown[] = [
      undefined,
      {},
      { b: 1, a: [true, null, 2.5, 'é'] },
      { metadata: { note: long } },
      { metadata: { note: `${long}"quoted"\\ and \n` } },
      { metadata: { note: `${long}\u0001`, emoji: '🔑'.repeat(5_000), lone: `${long}\ud800` } },
      { list: [long, { z: long, y: 'short' }], nested: { deeper: { deepest: long } } },
    ];
    for (const body of bodies) {
      expect(payloadDigest('PATCH', '/v1/email/inboxes/inbox_1', { expand: ['a', 'b'] }, body)).toBe(
        joined('PATCH', '/v1/email/inboxes/inbox_1', { expand: ['a', 'b'] }, body),
      );
    }
  });

  it('spec §8: one payload whatever the key order; another payload another digest', () => {
    expect(payloadDigest('POST', '/v1/x', {}, { a: 1, b: 'y'.repeat(500) })).toBe(
      payloadDigest('POST', '/v1/x', {}, { b: 'y'.repeat(500), a: 1 }),
    );
    expect(payloadDigest('POST', '/v1/x', {}, { a: 'y'.repeat(500) })).not.toBe(
      payloadDigest('POST', '/v1/x', {}, { a: `${'y'.repeat(499)}z` }),
    );
  });
});
