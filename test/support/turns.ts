/**
 * Telling turns of the event loop apart, for tests that hold bounded work per turn as counts and
 * orders, never as times: a `setImmediate` chain either counts the turns or marks them in a log.
 */

/** The number of the current turn, from `start()` on (0 in the turn it starts). */
export class TurnCounter {
  turn = 0;
  private ticking = false;

  start(): void {
    this.turn = 0;
    this.ticking = true;
    const tick = (): void => {
      this.turn += 1;
      if (this.ticking) setImmediate(tick);
    };
    tick();
  }

  stop(): void {
    this.ticking = false;
  }
}

/** Pushes `|` into `log` now and at every turn after, until the function returned is called. */
export function markTurns(log: string[]): () => void {
  let ticking = true;
  const tick = (): void => {
    log.push('|');
    if (ticking) setImmediate(tick);
  };
  tick();
  return () => {
    ticking = false;
  };
}

/** A log marked by `markTurns`, as one string per turn (its entries joined by spaces), empty turns left out. */
export function byTurn(log: string[]): string[] {
  return log
    .join(' ')
    .split('|')
    .map((turn) => turn.trim())
    .filter(Boolean);
}
