/**
 * Idempotency races on a real socket (spec §8, §7.3.3), for every write of the operation table.
 *
 * "Exactly one object" is checked by determinism rather than by guessing what a write creates: three
 * servers start with the same seed; one receives the request once, another receives it many times at
 * once under one Idempotency-Key, and their tenant states must be identical. The header contract:
 * one response is the original (no `Idempotent-Replayed`); every other is either a byte-identical
 * replay (same status and body, `Idempotent-Replayed: true`) or an error in the envelope (a 4xx, for
 * a request that arrived while the first was in flight or carried another body).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isWrite, type OperationDef } from '../../../src/operations/types.js';
import { OPERATIONS } from '../../../src/resources/index.js';
import type { MockServer } from '../../../src/server.js';
import { ACCOUNTS, KEYS, startServer } from '../../support/harness.js';
import { send, sendTogether, type LoopbackResponse } from '../../support/loopback.js';
import { IdPool, OperationRequests, type GeneratedRequest } from '../../support/requests.js';

const RACERS = 16;
const WRITES = OPERATIONS.filter((op) => isWrite(op));

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function freshServer(): Promise<MockServer> {
  const mock = await startServer({ seed: 'races' });
  servers.push(mock);
  return mock;
}

const options = { token: KEYS.paid };
const state = async (mock: MockServer) => (await mock.admin.accounts.get(ACCOUNTS.paid)).state;

/**
 * Valid requests that succeed on a fresh server, in the order found: the first, and (with `pair`)
 * a second to the same path with another body. Seeded, so the search is the same on every run.
 */
async function succeedingRequests(op: OperationDef, pair = false): Promise<GeneratedRequest[]> {
  const scratch = await freshServer();
  const generator = new OperationRequests(op, new IdPool(await state(scratch)), new IdPool({}));
  const found: GeneratedRequest[] = [];
  for (const request of fc.sample(generator.valid(), { numRuns: 300, seed: 11 })) {
    const [first] = found;
    if (first && (request.url !== first.url || JSON.stringify(request.body) === JSON.stringify(first.body))) continue;
    if ((await send(scratch, request, options)).status === op.success.status) found.push(request);
    if (found.length === (pair ? 2 : 1)) break;
  }
  return found;
}

/** The tenant state and response after sending `request` once, on a fresh server. */
async function once(request: GeneratedRequest, key: string): Promise<{ state: unknown; response: LoopbackResponse }> {
  const mock = await freshServer();
  const response = await send(mock, request, { ...options, headers: { 'Idempotency-Key': key } });
  return { state: await state(mock), response };
}

const replayed = (res: LoopbackResponse) => res.headers.get('idempotent-replayed') === 'true';

function expectOneOriginal(responses: LoopbackResponse[], successStatus: number): LoopbackResponse {
  const originals = responses.filter((res) => !replayed(res) && res.status < 400);
  expect(originals, 'exactly one response is the original').toHaveLength(1);
  const original = originals[0]!;
  expect(original.status).toBe(successStatus);
  for (const res of responses) {
    if (res === original) continue;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (replayed(res)) {
      expect(res.status).toBe(original.status);
      expect(res.text).toBe(original.text);
      expect(res.headers.get('request-id')).not.toBe(original.headers.get('request-id'));
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
  }
  return original;
}

describe('idempotency races (spec §8)', () => {
  describe.each(WRITES.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
    it('§8: concurrent requests with one Idempotency-Key and one body create exactly one object', async () => {
      const [request] = await succeedingRequests(op);
      expect(request, `no generated request for ${op.operationId} succeeded`).toBeDefined();
      const single = await once(request!, 'race-1');

      const raced = await freshServer();
      const responses = await sendTogether(raced, Array(RACERS).fill(request), { ...options, headers: { 'Idempotency-Key': 'race-1' } });
      const original = expectOneOriginal(responses, op.success.status);
      expect(original.text).toBe(single.response.text);
      expect(await state(raced)).toEqual(single.state);
    });
  });

  describe.each(WRITES.filter((op) => op.body).map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
    it('§7.3.3: concurrent requests with one Idempotency-Key and different bodies: one wins, the others are refused', async () => {
      // Same path, other body: another payload under the same key.
      const [first, second] = await succeedingRequests(op, true);
      expect(second, `no two generated bodies for ${op.operationId} succeeded on one path`).toBeDefined();

      const raced = await freshServer();
      const mixed = Array.from({ length: RACERS }, (_, i) => (i % 2 === 0 ? first! : second!));
      const responses = await sendTogether(raced, mixed, { ...options, headers: { 'Idempotency-Key': 'race-2' } });
      const original = expectOneOriginal(responses, op.success.status);
      const winner = mixed[responses.indexOf(original)]!;
      responses.forEach((res, i) => {
        if (mixed[i] !== winner) expect(res.status, 'a different body under the same key is refused').toBeGreaterThanOrEqual(400);
      });
      const single = await once(winner, 'race-2');
      expect(single.response.status).toBe(op.success.status);
      expect(await state(raced)).toEqual(single.state);
    });
  });
});
