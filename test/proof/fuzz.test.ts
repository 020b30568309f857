/**
 * Property tests over every operation of the operation table (issue: proof, item 3). Inputs come from
 * each declaration's own schemas (test/support/requests.ts); the invariants are checked after every
 * request by test/support/fuzz-world.ts. Run counts are bounded so the file stays fast; fast-check
 * prints the seed and the shrunk request of any failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import { FuzzWorld } from '../support/fuzz-world.js';

const VALID_RUNS = 30;
const INVALID_RUNS = 50;

describe.each(OPERATIONS.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
  it('§4, §7: valid inputs from its schemas never fail, reach its success status, and keep every invariant', async () => {
    const world = await FuzzWorld.create();
    const requests = world.requests(op).valid();
    await fc.assert(
      fc.asyncProperty(requests, (request) => world.run(request)),
      { numRuns: VALID_RUNS },
    );
    // The generator must reach the handler, not only the validators: probe once more and count successes.
    let successes = 0;
    for (const request of fc.sample(requests, 30)) {
      const res = await world.send(request);
      if (res.status === op.success.status) successes += 1;
    }
    expect(successes, `${op.operationId}: generated valid requests never reached ${op.success.status}`).toBeGreaterThan(0);
  });

  it('§7.2, §1, §5: invalid inputs get a 4xx in the envelope, with no partial write and no effect on another tenant', async () => {
    const world = await FuzzWorld.create();
    const labels = new Set<string>();
    await fc.assert(
      fc.asyncProperty(world.requests(op).invalid(), async (request) => {
        labels.add(request.label);
        await world.run(request);
      }),
      { numRuns: INVALID_RUNS },
    );
    expect(labels.size).toBeGreaterThan(1);
  });
});
