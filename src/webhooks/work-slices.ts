/**
 * Bounded work per turn of the event loop for the webhook hub's own work (job ends settled and their
 * events raised, attempts started), however much falls due at once: a clock advance over 10,000 due
 * jobs, or a timer tick over 3,000 accounts.
 *
 * Work comes as tasks of small synchronous steps (one job end, one page of a job's event, one
 * attempt's start): a task is an iterator, each `next()` one step. ONE pump per
 * turn, on `setImmediate`, runs the tasks' steps round-robin until `budgetMs` of real time is spent,
 * then lets the event loop turn (sockets are read, other tenants' requests answered) before the next
 * turn. A `setImmediate` queued from the pump runs on the next loop iteration, after the poll phase,
 * so tasks added meanwhile wait for the pump rather than each run on its own.
 *
 * Round-robin by step keeps the result deterministic: the order steps run in depends on the tasks
 * and their order of arrival, never on where a turn's budget ends (only when other requests are
 * read depends on that). `close()` ends it for good: waiting tasks are resolved without running.
 */

/** Real ms of webhook work per turn of the event loop before it yields (README "Webhooks"). */
export const SLICE_BUDGET_MS = 10;

interface Task {
  /** Runs one step; false once the task has nothing left. */
  step(): boolean;
  resolve(): void;
  reject(error: unknown): void;
}

export class WorkSlices {
  private tasks: Task[] = [];
  private head = 0;
  private pumping = false;
  private closed = false;

  constructor(
    private readonly budgetMs = SLICE_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs the steps of `steps` (each `next()` one), a few per turn; stops early once `goOn()` is false. */
  steps(steps: Iterator<unknown>, goOn: () => boolean): Promise<void> {
    return this.add(() => goOn() && !steps.next().done);
  }

  /** Runs `work` once, in a turn of its own budget; resolves with its result (undefined if closed first). */
  run<T>(work: () => T | Promise<T>): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      let result: T | Promise<T> | undefined;
      this.enqueue({
        step: () => {
          result = work();
          return false;
        },
        // Resolving with the promise `work` returned waits for it, as the caller wants.
        resolve: () => resolve(result),
        reject,
      });
    });
  }

  /** For good: nothing more runs; tasks waiting are resolved (their owners see they are closed). */
  close(): void {
    this.closed = true;
    const waiting = this.tasks.slice(this.head);
    this.tasks = [];
    this.head = 0;
    for (const task of waiting) task.resolve();
  }

  /** Tasks waiting for a turn (tests and diagnostics). */
  get pending(): number {
    return this.tasks.length - this.head;
  }

  private add(step: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue({ step, resolve, reject }));
  }

  private enqueue(task: Task): void {
    if (this.closed) {
      task.resolve();
      return;
    }
    this.tasks.push(task);
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(() => this.pump());
    }
  }

  private pump(): void {
    this.pumping = false;
    const ends = this.now() + this.budgetMs;
    while (!this.closed && this.head < this.tasks.length) {
      const task = this.tasks[this.head++]!;
      let more: boolean;
      try {
        more = task.step();
      } catch (error) {
        task.reject(error);
        more = false;
      }
      if (more) this.tasks.push(task);
      else task.resolve();
      if (this.now() >= ends) break;
    }
    // Drops the tasks already taken from the front once they are half of the array.
    if (this.head === this.tasks.length) {
      this.tasks = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.tasks.length) {
      this.tasks = this.tasks.slice(this.head);
      this.head = 0;
    }
    if (!this.closed && this.head < this.tasks.length && !this.pumping) {
      this.pumping = true;
      setImmediate(() => this.pump());
    }
  }
}
