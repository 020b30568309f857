/**
 * The indexes of the request journal (contract §3.4 filters): the tickets of its answered entries,
 * all of them and per `account_id`, `api_key_id` and `operation_id`, each list ascending. A filtered
 * or deep page finds its start by binary search and walks only matching entries, so it costs
 * O(log n + page) instead of a scan of the ring. Kept by RequestJournal as entries are answered,
 * evicted by the ring, forgotten (account reset/delete) and cleared.
 */

/**
 * A removed ticket's place: the ticket less a half, so the array stays sorted (a binary search for
 * any ticket lands where it did) and a tombstone is told from a ticket by not being an integer.
 */
const tombstoneOf = (ticket: number): number => ticket - 0.5;
const isTicket = (value: number): boolean => Number.isInteger(value);

/**
 * Tickets ascending. Requests are answered roughly in arrival order, and the ring evicts the oldest.
 * The byte budget drops the heaviest account's oldest entry, which sits anywhere in the list of all
 * entries and of its operation: such a removal leaves a tombstone in its place (O(log n) to find it)
 * instead of moving the tickets after it (O(n), ~90 µs a drop at 100k entries), and the list is
 * compacted once tombstones are as many as tickets, so each removal costs O(1) amortized.
 */
export class TicketList {
  /** Tickets and tombstones (see tombstoneOf), ascending; the one at `start` is always a ticket. */
  private items: number[] = [];
  /** Entries before `start` were evicted from the front; compacted once they are half the array. */
  private start = 0;
  /** Tombstones at or after `start`. */
  private dead = 0;

  get size(): number {
    return this.items.length - this.start - this.dead;
  }

  /** The oldest ticket, or undefined when empty. */
  first(): number | undefined {
    return this.items[this.start];
  }

  add(ticket: number): void {
    const last = this.items[this.items.length - 1];
    if (last === undefined || last < ticket) {
      this.items.push(ticket);
      return;
    }
    // Answered after newer requests were: slots in near the end.
    const at = this.lowerBound(ticket);
    if (this.items[at] !== ticket) this.items.splice(at, 0, ticket);
  }

  remove(ticket: number): void {
    if (this.items[this.start] === ticket) {
      // Eviction by the ring: always the oldest.
      this.start += 1;
      this.skipTombstones();
      if (this.start > 1024 && this.start * 2 > this.items.length) this.compact();
      return;
    }
    const at = this.lowerBound(ticket);
    if (this.items[at] !== ticket) return;
    this.items[at] = tombstoneOf(ticket);
    this.dead += 1;
    if (this.dead > 64 && this.dead * 2 > this.items.length - this.start) this.compact();
  }

  /** Drops every ticket in `tickets` in one pass. */
  removeAll(tickets: ReadonlySet<number>): void {
    this.items = this.items.slice(this.start).filter((ticket) => isTicket(ticket) && !tickets.has(ticket));
    this.start = 0;
    this.dead = 0;
  }

  /** Tickets below `before` (all when undefined), newest first. */
  *descending(before?: number): Generator<number> {
    const from = before === undefined ? this.items.length : this.lowerBound(before);
    for (let i = from - 1; i >= this.start; i--) {
      const ticket = this.items[i]!;
      if (isTicket(ticket)) yield ticket;
    }
  }

  /** Tickets above `after`, oldest first. */
  *ascending(after: number): Generator<number> {
    for (let i = this.lowerBound(after + 1); i < this.items.length; i++) {
      const ticket = this.items[i]!;
      if (isTicket(ticket)) yield ticket;
    }
  }

  /**
   * The ticket whose key is `key`, where keys ascend with tickets (binary search); undefined when
   * none has it. `keyOf` is asked of kept tickets only: a tombstone the search lands on stands for
   * the first ticket after it in its range (its entry is gone, its key unknown), so a lookup walks
   * the runs of tombstones it lands on: O(log n) plus those runs, which compaction keeps to at most
   * as many places as there are tickets (a page's cursor, looked up once per page).
   */
  findByAscendingKey(key: string, keyOf: (ticket: number) => string): number | undefined {
    let low = this.start;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      let probe = mid;
      while (probe < high && !isTicket(this.items[probe]!)) probe += 1;
      if (probe === high) high = mid;
      else if (keyOf(this.items[probe]!) < key) low = probe + 1;
      else high = mid;
    }
    while (low < this.items.length && !isTicket(this.items[low]!)) low += 1;
    const found = this.items[low];
    return found !== undefined && keyOf(found) === key ? found : undefined;
  }

  /** Index of the first ticket (or tombstone) >= `ticket`. */
  private lowerBound(ticket: number): number {
    let low = this.start;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.items[mid]! < ticket) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Keeps a ticket at `start`: tombstones reaching the front are passed over. */
  private skipTombstones(): void {
    while (this.start < this.items.length && !isTicket(this.items[this.start]!)) {
      this.start += 1;
      this.dead -= 1;
    }
  }

  /** Drops the evicted front and the tombstones in one pass: O(n), once per n/2 removals at least. */
  private compact(): void {
    this.items = this.items.slice(this.start).filter(isTicket);
    this.start = 0;
    this.dead = 0;
  }
}

/** The entry fields the journal can be filtered by. */
export const JOURNAL_FILTER_FIELDS = ['account_id', 'api_key_id', 'operation_id'] as const;
export type JournalFilterField = (typeof JOURNAL_FILTER_FIELDS)[number];
export type IndexedFields = { readonly [F in JournalFilterField]: string | null };
export type FieldFilter = { readonly [F in JournalFilterField]?: string | undefined };

const EMPTY = new TicketList();

export class JournalIndex {
  private readonly all = new TicketList();
  /** Entries of requests without a known key (no account): what `oldestOf(null)` reads. */
  private readonly unowned = new TicketList();
  private readonly byField: { [F in JournalFilterField]: Map<string, TicketList> } = {
    account_id: new Map(),
    api_key_id: new Map(),
    operation_id: new Map(),
  };

  get size(): number {
    return this.all.size;
  }

  /** The answered entry whose request id is `requestId`, when request ids ascend with tickets (see RequestJournal). */
  findAnswered(requestId: string, requestIdOf: (ticket: number) => string): number | undefined {
    return this.all.findByAscendingKey(requestId, requestIdOf);
  }

  /** The oldest answered entry's ticket (what a byte budget drops first), or undefined. */
  oldest(): number | undefined {
    return this.all.first();
  }

  /** The oldest answered entry of an account (of requests without a known key for null), or undefined. */
  oldestOf(accountId: string | null): number | undefined {
    return (accountId === null ? this.unowned : this.byField.account_id.get(accountId))?.first();
  }

  add(ticket: number, fields: IndexedFields): void {
    this.all.add(ticket);
    if (fields.account_id === null) this.unowned.add(ticket);
    for (const field of JOURNAL_FILTER_FIELDS) {
      const value = fields[field];
      if (value === null) continue;
      const bucket = this.byField[field];
      let list = bucket.get(value);
      if (!list) bucket.set(value, (list = new TicketList()));
      list.add(ticket);
    }
  }

  /** Removes an entry; `fields` are those it was added with. */
  remove(ticket: number, fields: IndexedFields): void {
    this.all.remove(ticket);
    if (fields.account_id === null) this.unowned.remove(ticket);
    for (const field of JOURNAL_FILTER_FIELDS) {
      const value = fields[field];
      const list = value === null ? undefined : this.byField[field].get(value);
      if (!list) continue;
      list.remove(ticket);
      if (list.size === 0) this.byField[field].delete(value!);
    }
  }

  /** The tickets of an account, ascending (a snapshot). */
  ticketsOf(accountId: string): number[] {
    return [...(this.byField.account_id.get(accountId)?.descending() ?? [])].reverse();
  }

  /** Removes many entries at once (an account's): one pass over each list they are in, not one per entry. */
  removeMany(entries: ReadonlyArray<{ ticket: number; fields: IndexedFields }>): void {
    if (entries.length === 0) return;
    const tickets = new Set(entries.map((entry) => entry.ticket));
    this.all.removeAll(tickets);
    if (entries.some((entry) => entry.fields.account_id === null)) this.unowned.removeAll(tickets);
    for (const field of JOURNAL_FILTER_FIELDS) {
      const bucket = this.byField[field];
      for (const value of new Set(entries.map((entry) => entry.fields[field]))) {
        const list = value === null ? undefined : bucket.get(value);
        if (!list) continue;
        list.removeAll(tickets);
        if (list.size === 0) bucket.delete(value!);
      }
    }
  }

  /**
   * The shortest list holding every entry the filter can match (every answered entry without a
   * filter); an empty one when a value filtered by has no entry. The caller still checks the other
   * fields: a combination of filters walks the narrowest of its lists.
   */
  narrowest(filter: FieldFilter): TicketList {
    let best = this.all;
    for (const field of JOURNAL_FILTER_FIELDS) {
      const value = filter[field];
      if (value === undefined) continue;
      const list = this.byField[field].get(value);
      if (!list) return EMPTY;
      if (list.size < best.size) best = list;
    }
    return best;
  }
}
