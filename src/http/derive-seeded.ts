/**
 * Derives the caller's seeded records before an operation that reads them, in slices of a few ms
 * with a turn of the event loop between two slices (src/store/store.ts `prepare`). Deriving an
 * account's records is ~5 ms of CPU warm and 20-60 ms while the code is cold or the machine busy;
 * run inside the operation it was one turn, and every other tenant's request waited for all of it.
 * Here another tenant's request waits for one slice; the operation then finds the records cached
 * and runs in one short turn. Only operations that read seeded records, or weigh them for the first
 * time, derive (`OperationDef.seededRecords`): a tenant that only polls its status or its jobs, or
 * creates crawls once its records were weighed, derives nothing.
 *
 * The store is the one the request captured (`ctx.state.store`): an account reset or deleted while
 * its records are between slices leaves the request with its captured store, whose derivation then
 * stays with it and never enters the shared cache.
 */
import type { OperationDef } from '../operations/types.js';
import type { SandboxMiddleware } from './context.js';
import { yieldTurn } from './large-body-lane.js';

export function deriveSeeded(needs: NonNullable<OperationDef['seededRecords']>): SandboxMiddleware {
  return function deriveSeededMiddleware(ctx, next) {
    const store = ctx.state.store;
    if (!store) throw new Error('deriveSeeded must run after authenticate');
    const derives = needs === 'read' || (needs === 'weight' && !store.seededWeighed);
    // An operation that needs nothing derived still waits for a derivation under way: the account's
    // earlier requests wait for it, and a later one must not overtake them (a key listed before the
    // key created ahead of it, depending on whether other tenants had evicted this one's records).
    const waiting = derives ? store.prepare(yieldTurn) : store.underWay;
    return waiting === undefined ? next() : waiting.then(() => next());
  };
}
