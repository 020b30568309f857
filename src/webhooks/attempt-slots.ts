/**
 * How many webhook attempts are in flight at once, sandbox-wide (`webhookConcurrency`): when
 * thousands of accounts fall due together (a sandbox clock advance, a timer tick), the process opens
 * at most that many connections, not one per account.
 *
 * Two classes of accounts wait for a slot, each round-robin in its own turn order (each account its
 * own line, oldest first; a freed slot goes to the account after the one served last, so an account
 * with 500 deliveries due never holds back another's first one by more than one turn):
 * - **hurried**: a clock call of the account waits on its deliveries (`acquire(id, true)`, or `hurry`
 *   once the call comes). A freed slot goes to them first: an account advancing its own clock waits
 *   for the first slot to free, not for the turn of every tenant queued before it.
 * - **the others** (work after a request, a running clock's timer): they may hold at most
 *   `max - reserve` slots; the reserve (1/16 of the cap: 16 of the default 256, none under 16) stays
 *   for hurried accounts, so other tenants' receivers that never answer cannot take every slot
 *   from an account whose test is waiting.
 * Each account sends one attempt at a time today (src/webhooks/hub.ts); the lines hold whatever that
 * becomes.
 *
 * An attempt's deadline starts when it gets its slot (src/webhooks/attempts.ts): waiting for one
 * never counts toward the receiver's 10 s, so a receiver is never failed for the sandbox's queue.
 */

/** Gives the slot back; call it once. */
export type ReleaseSlot = () => void;

type Grant = (release: ReleaseSlot | undefined) => void;

export class AttemptSlots {
  private inFlight = 0;
  /** Slots held by attempts granted outside the hurried class: at most `max - reserve`. */
  private unhurriedInFlight = 0;
  /** Accounts waiting, in turn order (a Map keeps insertion order), each with its own line. */
  private readonly hurried = new Map<string, Grant[]>();
  private readonly others = new Map<string, Grant[]>();
  private closed = false;
  /** Slots only hurried accounts may take. */
  readonly reserve: number;

  constructor(readonly max: number) {
    this.reserve = Math.floor(max / 16);
  }

  /**
   * Resolves with the slot's release once the account holds one, undefined if the hub closed first.
   * `hurried`: a clock call of the account waits on this attempt.
   */
  acquire(accountId: string, hurried = false): Promise<ReleaseSlot | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    return new Promise<ReleaseSlot | undefined>((resolve) => {
      const lines = hurried ? this.hurried : this.others;
      const line = lines.get(accountId);
      if (line) line.push(resolve);
      else lines.set(accountId, [resolve]);
      this.grant();
    });
  }

  /** A clock call of the account now waits on its deliveries: what it has waiting moves to the hurried turn. */
  hurry(accountId: string): void {
    const line = this.others.get(accountId);
    if (!line || this.closed) return;
    this.others.delete(accountId);
    const hurried = this.hurried.get(accountId);
    if (hurried) hurried.push(...line);
    else this.hurried.set(accountId, line);
    this.grant();
  }

  /** Hands free slots out: hurried accounts first, the others within their share. */
  private grant(): void {
    while (this.inFlight < this.max) {
      let lines = this.hurried;
      if (lines.size === 0) {
        if (this.unhurriedInFlight >= this.max - this.reserve) return;
        lines = this.others;
      }
      const next = lines.entries().next();
      if (next.done) return;
      const [accountId, line] = next.value;
      const give = line.shift()!;
      // To the back of its turn order, if it has more waiting.
      lines.delete(accountId);
      if (line.length > 0) lines.set(accountId, line);
      const unhurried = lines === this.others;
      this.inFlight += 1;
      if (unhurried) this.unhurriedInFlight += 1;
      let released = false;
      give(() => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        if (unhurried) this.unhurriedInFlight -= 1;
        if (!this.closed) this.grant();
      });
    }
  }

  /** Attempts waiting (tests and diagnostics). */
  get waiting(): number {
    let count = 0;
    for (const line of this.hurried.values()) count += line.length;
    for (const line of this.others.values()) count += line.length;
    return count;
  }

  /** For good: whoever waits is told no. */
  close(): void {
    this.closed = true;
    const lines = [...this.hurried.values(), ...this.others.values()];
    this.hurried.clear();
    this.others.clear();
    for (const line of lines) for (const give of line) give(undefined);
  }
}
