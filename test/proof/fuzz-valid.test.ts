/**
 * Property tests over every operation of the operation table, valid inputs.
 * Inputs come from each declaration's own schemas (test/support/requests.ts); the invariants are
 * checked after every request by test/support/fuzz-world.ts. Run counts are bounded so the file
 * stays fast; fast-check prints the seed and the shrunk request of any failure.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import { FuzzWorld } from '../support/fuzz-world.js';
import { fuzzRuns } from '../support/fuzz-runs.js';

const RUNS = fuzzRuns(25);
const SUCCESS_SEARCH = 200;

// One sandbox for the whole file: the invariants are checked request by request, so operations may
// share it, and what one operation leaves behind is more input for the next.
let world: FuzzWorld;
beforeAll(async () => {
  world = await FuzzWorld.create();
});

describe.each(OPERATIONS.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
  it('§4, §7: valid inputs from its schemas reach its success status, never fail, and keep every invariant', async () => {
    const requests = world.requests(op).valid();
    // The generator must reach the handler's success, not only its refusals (searched first, before
    // the property's own writes use up what a success needs). Seeded, so this is a property of the
    // generator and the fixtures, never a matter of luck.
    let reached = false;
    for (const request of fc.sample(requests, { numRuns: SUCCESS_SEARCH, seed: 1 })) {
      reached = (await world.run(request)) === op.success.status;
      if (reached) break;
    }
    expect(reached, `${op.operationId}: ${SUCCESS_SEARCH} generated valid requests never reached ${op.success.status}`).toBe(true);
    await fc.assert(
      fc.asyncProperty(requests, async (request) => void (await world.run(request))),
      { numRuns: RUNS },
    );
  });
});
