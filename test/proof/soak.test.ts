/**
 * Soak on a real socket: a few thousand mixed requests, valid and invalid,
 * over every operation, in rounds. After each round the sandbox is reset and the heap, collected,
 * must come back near its level after the warm-up round: what a long-running sidecar keeps must be
 * its state, never the traffic it served. Bounded in count; nothing is timed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import type { MockServer } from '../../src/server.js';
import { FUZZ_RATE_LIMIT } from '../support/fuzz-world.js';
import { ACCOUNTS, KEYS, startServer } from '../support/harness.js';
import { inPool, send } from '../support/loopback.js';
import { findGc, settledHeap } from '../support/memory.js';
import { IdPool, OperationRequests, type GeneratedRequest } from '../support/requests.js';

const ROUNDS = 3;
const PER_ROUND = 700;
const CONCURRENCY = 25;
const MB = 1024 * 1024;
const gc = findGc();
// With forced collection the heap is measured to within a few MB; without it, only a gross leak shows.
const ALLOWED_GROWTH = gc ? 8 * MB : 96 * MB;

describe('soak', () => {
  let mock: MockServer;
  let requests: GeneratedRequest[];

  beforeAll(async () => {
    mock = await startServer({ rateLimit: FUZZ_RATE_LIMIT });
    // The fixture's accounts: reset restores them with the same ids, so one request list serves every round.
    const own = new IdPool((await mock.admin.accounts.get(ACCOUNTS.paid)).state);
    const foreign = new IdPool((await mock.admin.accounts.get(ACCOUNTS.free)).state);
    const perOperation = OPERATIONS.map((op) => {
      const generator = new OperationRequests(op, own, foreign);
      return fc.sample(fc.oneof(generator.valid(), generator.invalid()), { numRuns: Math.ceil(PER_ROUND / OPERATIONS.length), seed: 3 });
    });
    requests = Array.from({ length: PER_ROUND }, (_, i) => perOperation[i % OPERATIONS.length]![Math.floor(i / OPERATIONS.length)]!);
  });

  afterAll(async () => {
    await mock?.close();
  });

  it(`serves ${ROUNDS} rounds of ${PER_ROUND} mixed requests without a 5xx, and memory returns to its level after reset`, async () => {
    const heaps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const responses = await inPool(requests, CONCURRENCY, (request) =>
        send(mock, request, { token: KEYS.paid, readOnlyToken: KEYS.freeReadOnly }),
      );
      const failures = responses.filter((res) => res.status >= 500);
      expect(
        failures.map((res) => res.text),
        `round ${round}`,
      ).toEqual([]);
      expect(responses.filter((res) => res.status < 400).length, `round ${round}: some requests succeed`).toBeGreaterThan(0);
      await mock.admin.reset();
      heaps.push(await settledHeap(gc));
    }
    // Round 0 warms caches (compiled validators, connection pools); later rounds must not add to it.
    const [baseline, ...later] = heaps;
    const growth = Math.max(...later) - baseline!;
    expect(growth, `heap after each round (MB): ${heaps.map((h) => (h / MB).toFixed(1)).join(', ')}`).toBeLessThan(ALLOWED_GROWTH);
  });
});
