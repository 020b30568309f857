/**
 * The indexes of the request journal (contract §3.4 filters): the tickets of its answered entries,
 * all of them and per `account_id`, `api_key_id` and `operation_id`, each list ascending. A filtered
 * or deep page finds its start by binary search and walks only matching entries, so it costs
 * O(log n + page) instead of a scan of the ring. Kept by RequestJournal as entries are answered,
 * evicted by the ring, forgotten (account reset/delete) and cleared.
 */

/** Tickets ascending. Requests are answered roughly in arrival order, and the ring evicts the oldest. */
export class TicketList {
  private items: number[] = [];
  /** Entries before `start` were evicted from the front; compacted once they are half the array. */
  private start = 0;

  get size(): number {
    return this.items.length - this.start;
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
      if (this.start > 1024 && this.start * 2 > this.items.length) {
        this.items = this.items.slice(this.start);
        this.start = 0;
      }
      return;
    }
    const at = this.lowerBound(ticket);
    if (this.items[at] === ticket) this.items.splice(at, 1);
  }

  /** Drops every ticket in `tickets` in one pass. */
  removeAll(tickets: ReadonlySet<number>): void {
    this.items = this.items.slice(this.start).filter((ticket) => !tickets.has(ticket));
    this.start = 0;
  }

  /** Tickets below `before` (all when undefined), newest first. */
  *descending(before?: number): Generator<number> {
    const from = before === undefined ? this.items.length : this.lowerBound(before);
    for (let i = from - 1; i >= this.start; i--) yield this.items[i]!;
  }

  /** Tickets above `after`, oldest first. */
  *ascending(after: number): Generator<number> {
    for (let i = this.lowerBound(after + 1); i < this.items.length; i++) yield this.items[i]!;
  }

  /**
   * The ticket whose key is `key`, where keys ascend with tickets (binary search); undefined when
   * none has it.
   */
  findByAscendingKey(key: string, keyOf: (ticket: number) => string): number | undefined {
    let low = this.start;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (keyOf(this.items[mid]!) < key) low = mid + 1;
      else high = mid;
    }
    const found = this.items[low];
    return found !== undefined && keyOf(found) === key ? found : undefined;
  }

  /** Index of the first ticket >= `ticket`. */
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
