/**
 * One-off work that start-up leaves for after listen, done in idle slices so that no request waits
 * behind it: loading faker (what the first derivation of an account's records needs), Node's fetch
 * globals (what Koa's first object answer touches), loading ajv, and compiling the validators of every /v1 operation and /__admin route, one schema at a time.
 *
 * Without it each of these ran inside the first request that needed it, in one turn of the event
 * loop (up to ~100 ms for a first GET of seeded records: faker's load, ajv's, the compile), and
 * every other tenant's request waited behind that turn. Now a slice is at most a few ms of steps, or
 * one longer step (loading faker, ajv or Node's fetch, ~15-40 ms each) and the slices are `setImmediate` callbacks, so the requests that
 * arrived meanwhile are read and answered between two of them. A request that comes before its
 * operation's turn compiles that operation's validators alone (src/http/router.ts), as before.
 *
 * Nothing here changes what any request answers: the steps only fill process-wide caches that the
 * first use would fill the same way.
 */
import { adminSchemaSteps, type AdminOperation } from './admin/route-kit.js';
import { ADMIN_OPERATIONS } from './admin/operations.js';
import type { OperationDef } from './operations/types.js';
import { DECLARED_COMPILER_STEPS, validatorSteps } from './operations/validation.js';
import { loadFaker } from './random.js';
import { OPERATIONS } from './resources/index.js';

/** A step of the background work: synchronous and short, or a promise whose own turns are short. */
export type WarmUpStep = () => unknown;

/** Steps run in one slice until this much time has gone (always at least one step per slice). */
const SLICE_MS = 4;

/**
 * After listen, how long the sandbox waits before the first slice: the first requests of a suite
 * (and the CLI's first answer) usually come at once, and need nothing of this.
 */
export const WARM_UP_DELAY_MS = 100;

export interface WarmUp {
  /** Resolves when every step has run (or the work was stopped). */
  readonly done: Promise<void>;
  /** Slices run so far: each is one turn of the event loop. */
  readonly slices: number;
  /** Stops before the next slice (the server is closing). */
  stop(): void;
}

/** The sandbox's background steps: faker, ajv, then each schema of each operation and admin route. */
export function warmUpSteps(
  operations: readonly OperationDef[] = OPERATIONS,
  admin: readonly Pick<AdminOperation, 'body' | 'query'>[] = ADMIN_OPERATIONS,
): WarmUpStep[] {
  return [
    loadFaker,
    // Koa checks every object body against these globals, which Node defines lazily: `Response`
    // loads Node's fetch (undici), ~20-70 ms in one turn, in the first admin answer otherwise.
    () => globalThis.ReadableStream,
    () => globalThis.Response,
    ...DECLARED_COMPILER_STEPS,
    // The large members of a split body schema (POST /__admin/accounts' `template` and `pinned`,
    // a third of the whole compile) are left to the first body that has them.
    // One schema per step: an operation's query, path and body schemas, an admin route's body and query.
    ...operations.flatMap(validatorSteps),
    ...admin.flatMap(adminSchemaSteps),
  ];
}

/** Runs `steps` in slices of at most ~SLICE_MS (one step at least), each slice a `setImmediate` turn, after `delayMs`. */
export function warmUp(initial: readonly WarmUpStep[] = warmUpSteps(), delayMs = WARM_UP_DELAY_MS): WarmUp {
  const steps = [...initial];
  let next = 0;
  let slices = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const slice = (): void => {
    timer = undefined;
    if (stopped) return;
    slices += 1;
    const started = performance.now();
    while (next < steps.length) {
      let result: unknown;
      try {
        result = steps[next++]!();
      } catch {
        // A failing compile fails again, with its message, in the request that needs it.
        result = undefined;
      }
      if (result instanceof Promise) {
        // Its own turns come in between; the next slice waits for it.
        void result.then(schedule, schedule);
        return;
      }
      if (performance.now() - started >= SLICE_MS) break;
    }
    schedule();
  };
  const schedule = (): void => {
    if (stopped) return;
    if (next >= steps.length) {
      finish();
      return;
    }
    // Not unref'd: Node keeps its poll phase from blocking only for referenced immediates, so an
    // unref'd one would wait for the next I/O or timer (seconds, on an idle server). The work is
    // finite and `stop()` ends it.
    timer = setImmediate(slice);
  };

  // Unref'd: a process with nothing else to do exits rather than wait for it.
  timer = setTimeout(slice, delayMs);
  timer.unref();
  return {
    done,
    get slices() {
      return slices;
    },
    stop() {
      stopped = true;
      if (timer) {
        clearTimeout(timer as NodeJS.Timeout);
        clearImmediate(timer as NodeJS.Immediate);
      }
      finish();
    },
  };
}
