/**
 * Pure work of a request that costs more than a turn should (rendering a completed 100-page crawl
 * for a read, ~8-16 ms of CPU), run a few small steps per turn of the event
 * loop, so another tenant's request is read and answered between two slices instead of after all.
 *
 * One lane per account: in each turn, each account with work (up to SLICES_PER_TURN of them, the
 * others in the next turns) runs ONE slice of its oldest task, and that task then goes to the back
 * of its account's lane. A tenant with eight expensive requests in
 * flight therefore delays another tenant's request by one slice per turn, as a tenant with one does,
 * not by eight (the idea of the large-body lane, src/http/large-body-lane.ts, applied to CPU work
 * instead of bodies). A lane is keyed by the account's store object, not its id: two sandboxes of one
 * process (a test suite's many apps) whose accounts share an id, or an account and its next life
 * after a reset, never share a lane. The work is pure (a function of the seed and the input), so
 * where a slice ends or which account runs first changes no answer's bytes.
 *
 * A slice is a fixed number of steps, not a time budget: what one turn may do is the same on a busy
 * machine as on an idle one, and tests can count it.
 */

/** Steps per slice. A step is one page rendered (~150-300 µs): about 1 ms a slice. */
export const STEPS_PER_SLICE = 4;
/**
 * Slices per turn of the event loop, across accounts: with more accounts waiting, the rest run in
 * the next turns (round-robin), so a turn holds other requests for ~8-10 ms at most, not one slice
 * for every account that waits.
 */
export const SLICES_PER_TURN = 8;

interface Task {
  steps: Iterator<unknown, unknown, void>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Each account's tasks, oldest first; an account leaves the map when its lane empties. */
const lanes = new Map<object, Task[]>();
let scheduled = false;

/**
 * Runs `steps` (each `next()` one step) to its end in slices of STEPS_PER_SLICE steps, one slice per
 * turn of the event loop in the lane of `account` (its store; the first in the next turn); resolves with the
 * generator's return value, or rejects with what a step threw.
 */
export function inSlices<T>(account: object, steps: Iterator<unknown, T, void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const task: Task = { steps, resolve, reject };
    const queue = lanes.get(account);
    if (queue) queue.push(task);
    else lanes.set(account, [task]);
    schedule();
  });
}

/** Accounts with work waiting (tests and diagnostics). */
export function busyLanes(): number {
  return lanes.size;
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // Not unref'd: the work is finite, and requests wait for it.
  setImmediate(turn);
}

function turn(): void {
  scheduled = false;
  // The accounts at the head of the map, each moved to its back once served (if it has work left):
  // round-robin across turns, so a turn's work is bounded however many accounts wait.
  // Tasks added while this runs (none can be: continuations are microtasks, after it) would wait.
  const batch: Array<[object, Task[]]> = [];
  for (const entry of lanes) {
    if (batch.length === SLICES_PER_TURN) break;
    batch.push(entry);
  }
  for (const [account, queue] of batch) {
    lanes.delete(account);
    const task = queue.shift()!;
    if (slice(task)) queue.push(task);
    if (queue.length > 0) lanes.set(account, queue);
  }
  if (lanes.size > 0) schedule();
}

/** One slice of `task`; whether it has steps left. */
function slice(task: Task): boolean {
  try {
    for (let i = 0; i < STEPS_PER_SLICE; i++) {
      const step = task.steps.next();
      if (step.done) {
        task.resolve(step.value);
        return false;
      }
    }
    return true;
  } catch (error) {
    task.reject(error);
    return false;
  }
}
