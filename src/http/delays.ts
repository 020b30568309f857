/**
 * The artificial delays of `slow-responses` (contract §3.5) under way, one set per app. They are the
 * sandbox's only real waits inside a request, so closing the server ends them all at once: the
 * request goes on and is answered at once (contract §1: in-flight requests finish, and the process
 * exits within 2 s), instead of being cut when the grace period ends. A delay that would start after
 * closing began does not wait at all.
 */
import type { ServerResponse } from 'node:http';

export class ArtificialDelays {
  private readonly waiting = new Set<() => void>();
  private ended = false;

  /** Delays under way right now. */
  get size(): number {
    return this.waiting.size;
  }

  /** Waits `ms` of real time, or less if the response closes first (client gone) or the server closes. */
  wait(ms: number, res: ServerResponse): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        res.off('close', done);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      res.once('close', done);
      this.waiting.add(done);
    });
  }

  /** Ends every delay under way, and every later one before it starts (the server is closing). */
  endAll(): void {
    this.ended = true;
    for (const done of [...this.waiting]) done();
  }
}
