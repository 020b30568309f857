/**
 * How many webhook attempts are in flight at once, sandbox-wide (`webhookConcurrency`): when
 * thousands of accounts fall due together (a sandbox clock advance, a timer tick), the process opens
 * at most that many connections, not one per account.
 *
 * Slots are handed out round-robin between accounts: each account waiting has its own line (oldest
 * first), and a freed slot goes to the account after the one served last, so an account with 500
 * deliveries due never holds back another's first one by more than one turn. (Each account sends
 * one attempt at a time today, src/webhooks/hub.ts; the turns hold whatever that becomes.)
 *
 * An attempt's deadline starts when it gets its slot (src/webhooks/attempts.ts): waiting for one
 * never counts toward the receiver's 10 s, so a receiver is never failed for the sandbox's queue.
 */
export class AttemptSlots {
  private inFlight = 0;
  /** Accounts waiting, in turn order (a Map keeps insertion order), each with its own line. */
  private readonly lines = new Map<string, Array<(granted: boolean) => void>>();
  private closed = false;

  constructor(readonly max: number) {}

  /** Resolves true once the account holds a slot (give it back with `release`), false if the hub closed first. */
  acquire(accountId: string): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.inFlight < this.max && this.lines.size === 0) {
      this.inFlight += 1;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const line = this.lines.get(accountId);
      if (line) line.push(resolve);
      else this.lines.set(accountId, [resolve]);
    });
  }

  /** A slot is free: it goes to the next account in turn. */
  release(): void {
    this.inFlight -= 1;
    if (this.closed) return;
    const next = this.lines.entries().next();
    if (next.done) return;
    const [accountId, line] = next.value;
    const grant = line.shift()!;
    // To the back of the turn order, if it has more waiting.
    this.lines.delete(accountId);
    if (line.length > 0) this.lines.set(accountId, line);
    this.inFlight += 1;
    grant(true);
  }

  /** Attempts waiting (tests and diagnostics). */
  get waiting(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.length;
    return count;
  }

  /** For good: whoever waits is told no. */
  close(): void {
    this.closed = true;
    const lines = [...this.lines.values()];
    this.lines.clear();
    for (const line of lines) for (const grant of line) grant(false);
  }
}
