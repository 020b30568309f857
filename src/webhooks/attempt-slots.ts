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
 * Slots are bounded in bytes too (`webhookInflightBudget`): the bodies of the attempts in flight
 * sum to at most the budget, so 256 attempts of megabyte events never pin 256 megabytes (a body is
 * shared by its event's deliveries and kept by the delivery log while it may be sent, but one the
 * log dropped, or whose account was reset, lives until its attempt ends). An attempt whose body does
 * not fit waits: the heaviest waits first. Lighter bodies behind it in the turn order pass it while
 * they fit, at most MAX_PASSES times; then nothing passes it until the bytes in flight leave it room,
 * so a heavy body is delayed, never starved. A body over the whole budget goes alone, once nothing
 * else is in flight (an event always gets its attempts). A grant looks at most SCAN_LIMIT waiting
 * accounts, so thousands waiting cost no walk of them all.
 *
 * A waiting attempt that went stale (its account reset or deleted, its endpoint deleted, its delivery
 * dropped by the log: its `stale` check says so) is withdrawn, never granted: at once when the hub
 * says its account changed (`withdraw`), and whenever a grant meets it first in its line. It is told
 * no (undefined), so its delivery and body are let go, it takes no slot and no bytes, and it is
 * passed over by nobody: a stale body over the budget never holds the other tenants back.
 *
 * An attempt's deadline starts when it gets its slot (src/webhooks/attempts.ts): waiting for one
 * never counts toward the receiver's 10 s, so a receiver is never failed for the sandbox's queue.
 */

/** How many times lighter bodies may pass one that does not fit before they wait for it. */
export const MAX_PASSES = 8;
/** Waiting accounts a grant looks at, in turn order, for a body that fits. */
const SCAN_LIMIT = 64;

/** Gives the slot back; call it once. */
export type ReleaseSlot = () => void;

interface Grant {
  readonly give: (release: ReleaseSlot | undefined) => void;
  /** Bytes of the body the attempt sends. */
  readonly bytes: number;
  /** Times a lighter body went before it while it did not fit. */
  passed: number;
  /** True once what it would send is gone: it is withdrawn, not granted. */
  readonly stale: () => boolean;
}

const NEVER_STALE = (): boolean => false;

export class AttemptSlots {
  private inFlight = 0;
  /** Bytes of the bodies of the attempts in flight: at most `budget`, unless one alone is over it. */
  private inFlightBytes = 0;
  /** Slots held by attempts granted outside the hurried class: at most `max - reserve`. */
  private unhurriedInFlight = 0;
  /** Accounts waiting, in turn order (a Map keeps insertion order), each with its own line. */
  private readonly hurried = new Map<string, Grant[]>();
  private readonly others = new Map<string, Grant[]>();
  private closed = false;
  /** Slots only hurried accounts may take. */
  readonly reserve: number;

  constructor(
    readonly max: number,
    /** Bytes of bodies in flight at once. */
    readonly budget = Infinity,
  ) {
    this.reserve = Math.floor(max / 16);
  }

  /**
   * Resolves with the slot's release once the account holds one, undefined if the hub closed first.
   * `hurried`: a clock call of the account waits on this attempt; `bytes`: its body's; `stale`: true
   * once the attempt has nothing left to send (it then resolves undefined, without a slot).
   */
  acquire(accountId: string, hurried = false, bytes = 0, stale: () => boolean = NEVER_STALE): Promise<ReleaseSlot | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    return new Promise<ReleaseSlot | undefined>((resolve) => {
      const lines = hurried ? this.hurried : this.others;
      const grant: Grant = { give: resolve, bytes, passed: 0, stale };
      const line = lines.get(accountId);
      if (line) line.push(grant);
      else lines.set(accountId, [grant]);
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

  /**
   * The account's waiting attempts that went stale leave their lines now, told no; the others keep
   * their place. Called by the hub when an account is reset or deleted, an endpoint deleted or a
   * delivery dropped, so a stale attempt holds no memory and no turn while the slots are full.
   */
  withdraw(accountId: string): void {
    if (this.closed) return;
    let withdrawn = false;
    for (const lines of [this.hurried, this.others]) {
      const line = lines.get(accountId);
      if (!line) continue;
      const kept = line.filter((grant) => !grant.stale());
      if (kept.length === line.length) continue;
      withdrawn = true;
      for (const grant of line) if (!kept.includes(grant)) grant.give(undefined);
      if (kept.length === 0) lines.delete(accountId);
      else line.splice(0, line.length, ...kept);
    }
    // A withdrawn body may have been what the others waited behind.
    if (withdrawn) this.grant();
  }

  /** Hands free slots out: hurried accounts first, the others within their share, each body within the bytes left. */
  private grant(): void {
    while (this.inFlight < this.max) {
      const found = this.next();
      if (!found) return;
      const [lines, accountId, line] = found;
      const { give, bytes } = line.shift()!;
      // To the back of its turn order, if it has more waiting.
      lines.delete(accountId);
      if (line.length > 0) lines.set(accountId, line);
      const unhurried = lines === this.others;
      this.inFlight += 1;
      this.inFlightBytes += bytes;
      if (unhurried) this.unhurriedInFlight += 1;
      let released = false;
      give(() => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.inFlightBytes -= bytes;
        if (unhurried) this.unhurriedInFlight -= 1;
        if (!this.closed) this.grant();
      });
    }
  }

  /**
   * The account whose attempt goes next: the first in turn order (hurried first) whose body fits,
   * passing those that do not fit unless one of them was passed MAX_PASSES times already.
   */
  private next(): [Map<string, Grant[]>, string, Grant[]] | undefined {
    const passed: Grant[] = [];
    let looked = 0;
    for (const lines of [this.hurried, this.others]) {
      if (lines === this.others && this.unhurriedInFlight >= this.max - this.reserve) break;
      for (const [accountId, line] of lines) {
        if (looked++ === SCAN_LIMIT) return undefined;
        // Stale ones at the head of the line are withdrawn here too (deleting the entry being
        // visited is safe while a Map is iterated).
        while (line.length > 0 && line[0]!.stale()) line.shift()!.give(undefined);
        if (line.length === 0) {
          lines.delete(accountId);
          continue;
        }
        const first = line[0]!;
        if (this.inFlightBytes === 0 || this.inFlightBytes + first.bytes <= this.budget) {
          for (const grant of passed) grant.passed += 1;
          return [lines, accountId, line];
        }
        // Owed its turn: nothing passes it any more.
        if (first.passed >= MAX_PASSES) return undefined;
        passed.push(first);
      }
    }
    return undefined;
  }

  /** Bytes of the bodies of the attempts in flight (tests and diagnostics). */
  get bytesInFlight(): number {
    return this.inFlightBytes;
  }

  /** Bytes of the bodies of the attempts waiting, which they keep alive (tests and diagnostics). */
  get bytesWaiting(): number {
    let bytes = 0;
    for (const lines of [this.hurried, this.others]) for (const line of lines.values()) for (const grant of line) bytes += grant.bytes;
    return bytes;
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
    for (const line of lines) for (const { give } of line) give(undefined);
  }
}
