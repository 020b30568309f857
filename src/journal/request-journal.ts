/**
 * The request journal (contract §3.4): what clients sent to /v1 and what they got, the last N
 * requests in a ring buffer, so memory stays bounded however long the sandbox runs. An entry is
 * reserved when the request arrives (so the order is arrival order, request ids ascending) and
 * shown once it is answered; an entry still in flight is not listed.
 */
export interface JournalEntry {
  request_id: string;
  method: string;
  /** Including `/v1`, without the query. */
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  idempotent_replayed: boolean;
  /** Ids of the scenario activations that acted on it; a `Prefer`-requested one is `prefer:<name>`. */
  scenario_ids: string[];
  /** Virtual clock at arrival, ISO 8601 with milliseconds. */
  timestamp: string;
  /** The JSON body as sent (before defaults were filled in); null when none was sent or it was not JSON. */
  body: unknown;
}

export type JournalArrival = Pick<JournalEntry, 'request_id' | 'method' | 'path' | 'query' | 'timestamp'>;
export type JournalOutcome = Omit<JournalEntry, keyof JournalArrival>;

export interface JournalFilter {
  account_id?: string;
  api_key_id?: string;
  operation_id?: string;
  /** The request id of the last entry of the previous page. */
  starting_after?: string;
  limit: number;
}

class Slot {
  entry: JournalEntry | undefined;
  constructor(readonly arrival: JournalArrival) {}

  finish(outcome: JournalOutcome): void {
    const { request_id, method, path, query, timestamp } = this.arrival;
    // In the order of contract §3.4.
    this.entry = {
      request_id,
      method,
      path,
      query,
      status: outcome.status,
      account_id: outcome.account_id,
      api_key_id: outcome.api_key_id,
      operation_id: outcome.operation_id,
      idempotent_replayed: outcome.idempotent_replayed,
      scenario_ids: outcome.scenario_ids,
      timestamp,
      body: outcome.body,
    };
  }
}

export class UnknownJournalCursor extends Error {}

export class RequestJournal {
  private readonly slots: Array<Slot | undefined>;
  /** Where the next arrival goes. */
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array<Slot | undefined>(capacity);
  }

  /** Reserves the request's place; `finish` it when answered. With capacity 0 nothing is kept. */
  arrive(arrival: JournalArrival): { finish(outcome: JournalOutcome): void } {
    const slot = new Slot(arrival);
    if (this.capacity === 0) return slot;
    this.slots[this.head] = slot;
    this.head = (this.head + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    return slot;
  }

  /** Newest first, answered entries only, filtered; `has_more` when another match follows. */
  list(filter: JournalFilter): { data: JournalEntry[]; has_more: boolean } {
    const data: JournalEntry[] = [];
    let skipping = filter.starting_after !== undefined;
    for (const entry of this.newestFirst()) {
      if (skipping) {
        if (entry.request_id === filter.starting_after) skipping = false;
        continue;
      }
      if (filter.account_id !== undefined && entry.account_id !== filter.account_id) continue;
      if (filter.api_key_id !== undefined && entry.api_key_id !== filter.api_key_id) continue;
      if (filter.operation_id !== undefined && entry.operation_id !== filter.operation_id) continue;
      if (data.length === filter.limit) return { data, has_more: true };
      data.push(structuredClone(entry));
    }
    if (skipping) throw new UnknownJournalCursor(filter.starting_after);
    return { data, has_more: false };
  }

  /** Empties the journal; requests in flight are not recorded. Returns how many entries there were. */
  clear(): number {
    const count = [...this.newestFirst()].length;
    this.slots.fill(undefined);
    this.head = 0;
    this.size = 0;
    return count;
  }

  private *newestFirst(): Generator<JournalEntry> {
    for (let i = 1; i <= this.size; i++) {
      const entry = this.slots[(this.head - i + this.capacity) % this.capacity]?.entry;
      if (entry) yield entry;
    }
  }
}
