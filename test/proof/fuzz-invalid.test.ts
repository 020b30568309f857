/**
 * Property tests over every operation of the operation table, invalid inputs:
 * mutations of valid requests (test/support/requests.ts). Whether a mutation must be refused is
 * decided by the declaration's own validators; the invariants are checked after every request by
 * test/support/fuzz-world.ts. Run counts are bounded so the file stays fast.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import { FuzzWorld } from '../support/fuzz-world.js';
import { fuzzRuns } from '../support/fuzz-runs.js';

// 20 cases per operation (20 × OPERATIONS.length requests), each followed by two state snapshots (fuzz-world.ts).
const RUNS = fuzzRuns(20);

// One sandbox for the whole file: the invariants are checked request by request, so operations may
// share it, and what one operation leaves behind is more input for the next.
let world: FuzzWorld;
beforeAll(async () => {
  world = await FuzzWorld.create();
});

describe.each(OPERATIONS.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
  it('§7.2, §1, §5: invalid inputs get a 4xx in the envelope, with no partial write and no effect on another tenant', async () => {
    const labels = new Set<string>();
    await fc.assert(
      fc.asyncProperty(world.requests(op).invalid(), async (request) => {
        labels.add(request.label);
        await world.run(request);
      }),
      { numRuns: RUNS },
    );
    expect(labels.size).toBeGreaterThan(1);
  });
});
