/**
 * Derives the caller's seeded records before an operation that reads them, in slices of a few ms
 * with a turn of the event loop between two slices (src/store/store.ts `prepare`). Deriving an
 * account's records is ~5 ms of CPU warm and 20-60 ms while the code is cold or the machine busy;
 * run inside the operation it was one turn, and every other tenant's request waited for all of it.
 * Here another tenant's request waits for one slice; the operation then finds the records cached
 * and runs in one short turn. Only operations that read (or weigh) seeded records get this step
 * (`OperationDef.seededRecords`), so a tenant that only polls its status or its jobs derives nothing.
 *
 * The store is the one the request captured (`ctx.state.store`): an account reset or deleted while
 * its records are between slices leaves the request with its captured store, whose derivation then
 * stays with it and never enters the shared cache.
 */
import type { SandboxMiddleware } from './context.js';
import { yieldTurn } from './large-body-lane.js';

export function deriveSeeded(): SandboxMiddleware {
  return function deriveSeededMiddleware(ctx, next) {
    const store = ctx.state.store;
    if (!store) throw new Error('deriveSeeded must run after authenticate');
    const deriving = store.prepare(yieldTurn);
    return deriving === undefined ? next() : deriving.then(() => next());
  };
}
