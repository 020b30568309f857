/**
 * The request journal (contract §3.4): what clients sent to /v1 and what they got, the last N
 * requests in a ring buffer, so memory stays bounded however long the sandbox runs. An entry is
 * reserved when the request arrives (so the order is arrival order, request ids ascending) and
 * shown once it is answered; an entry still in flight is not listed.
 *
 * Places are allocated as requests arrive, up to the capacity, then reused: a journal of 1,000,000
 * costs nothing at boot or reset, only what its requests fill. `clear` drops the places in O(1).
 * Listing walks indexes (src/protocol/journal-index.ts), not the ring: a page filtered by account
 * or from a deep cursor costs O(log n + page).
 */

/** The name of the transport fault that lost an answer (`connection-reset`, …: src/scenarios/fault-effect.ts). */
export type JournalFault = string;
import { parse as parseQuery } from 'node:querystring';
import { JournalIndex, JOURNAL_FILTER_FIELDS } from './journal-index.js';

export interface JournalEntry {
  request_id: string;
  method: string;
  /** Including `/v1`, without the query. */
  path: string;
  query: Record<string, string | string[]>;
  /** The status sent; with a fault after the operation, the status of the answer lost; null when nothing was answered. */
  status: number | null;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  idempotent_replayed: boolean;
  /** Ids of the scenario activations that acted on it; a `Prefer`-requested one is `prefer:<name>`. */
  scenario_ids: string[];
  /** The transport fault that lost its answer (`connection-reset`, …, contract §4.2); null when none. */
  fault: JournalFault | null;
  /** Virtual clock at arrival, ISO 8601 with milliseconds. */
  timestamp: string;
  /** The JSON body as sent (before defaults were filled in); null when none was sent or it was not JSON. */
  body: unknown;
  /** What the client got (contract §4.4); null when nothing was answered (a fault before the operation). */
  response: JournalResponse | null;
}

/** An answer as the journal shows it: its status, and its body as sent (the JSON value, or the text when not JSON; null without one or past 1 MiB). */
export interface JournalResponse {
  status: number;
  body: unknown;
}

/** What is known when a request arrives; kept as sent, turned into an entry only when listed. */
export interface JournalArrival {
  request_id: string;
  method: string;
  path: string;
  /** The raw query string, without `?` (parsed when listed). */
  querystring: string;
  /** Virtual clock at arrival, epoch ms. */
  at: number;
}

/** What is known once it is answered. */
export interface JournalOutcome {
  status: number | null;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  idempotent_replayed: boolean;
  scenario_ids: readonly string[];
  fault: JournalFault | null;
  /** The body text as sent, when it was read (parsed as JSON when listed). */
  raw_body: string | undefined;
  /** Arrival on the caller's account clock, when it has its own (contract §4.1); else the arrival's. */
  at?: number | undefined;
  /**
   * The answer's body text, the very string that was written (kept, never copied or re-serialized);
   * undefined when it had none or it was not kept (past 1 MiB). Parsed only when listed.
   */
  response_text?: string | undefined;
  /** Whether `response_text` is JSON (every answer the sandbox writes itself is). */
  response_json?: boolean;
}

export interface JournalFilter {
  account_id?: string;
  api_key_id?: string;
  operation_id?: string;
  /** The request id of the last entry of the previous page: older entries follow. */
  starting_after?: string;
  /**
   * The request id of the first entry of the previous page: the entries newer than it, the `limit`
   * nearest to it (so a reader polling for new entries walks forward without a gap), newest first.
   */
  ending_before?: string;
  limit: number;
}

/** A request's place in the journal, from `arrive`; `finish` it when answered. */
export type JournalTicket = number;

const NO_SCENARIOS: readonly string[] = Object.freeze([]);

/**
 * One place of the ring, allocated when the ring first reaches it and written over from then on: a
 * busy sandbox records every request without allocating an entry per request (which the garbage
 * collector then had to copy while the entry stayed among the last N). Entries are built when
 * someone lists them.
 */
class Slot {
  /** The ticket of the request in this place; 0 when empty. */
  ticket = 0;
  answered = false;
  request_id = '';
  method = '';
  path = '';
  querystring = '';
  at = 0;
  status: number | null = 0;
  account_id: string | null = null;
  api_key_id: string | null = null;
  operation_id: string | null = null;
  idempotent_replayed = false;
  scenario_ids: readonly string[] = NO_SCENARIOS;
  fault: JournalFault | null = null;
  raw_body: string | undefined = undefined;
  response_text: string | undefined = undefined;
  response_json = true;

  entry(): JournalEntry {
    // In the order of contract §3.4.
    return {
      request_id: this.request_id,
      method: this.method,
      path: this.path,
      query: { ...parseQuery(this.querystring) } as Record<string, string | string[]>,
      status: this.status,
      account_id: this.account_id,
      api_key_id: this.api_key_id,
      operation_id: this.operation_id,
      idempotent_replayed: this.idempotent_replayed,
      scenario_ids: [...this.scenario_ids],
      fault: this.fault,
      timestamp: new Date(this.at).toISOString(),
      body: parseBody(this.raw_body),
      response: this.status === null ? null : { status: this.status, body: this.responseBody() },
    };
  }

  private responseBody(): unknown {
    if (this.response_text === undefined) return null;
    return this.response_json ? parseBody(this.response_text) : this.response_text;
  }
}

/** The body as sent, or null when none was sent or it was not JSON. */
function parseBody(raw: string | undefined): unknown {
  if (raw === undefined || raw.trim() === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** The list walked matches one filter (the narrowest index); a combination checks the others here. */
function matches(slot: Slot, filter: JournalFilter): boolean {
  return JOURNAL_FILTER_FIELDS.every((field) => filter[field] === undefined || slot[field] === filter[field]);
}

/** A `starting_after` or `ending_before` naming no entry the journal still keeps. */
export class UnknownJournalCursor extends Error {
  constructor(readonly cursor: string) {
    super(`no request '${cursor}' in the journal`);
  }
}

export class RequestJournal {
  /** Grows by one place per arrival until it holds `capacity`, then the ring wraps. */
  private slots: Slot[] = [];
  /** Where the next arrival goes. */
  private head = 0;
  private size = 0;
  /** Answered entries among the places: what `clear` reports, without walking them. */
  private answered = 0;
  private lastTicket = 0;
  /** The last ticket issued before the places were dropped: tickets after it count from place 0. */
  private base = 0;
  /** Tickets of the answered entries, all and by filterable field. */
  private index = new JournalIndex();
  /**
   * Whether every request id so far sorted after the one before it, as the sandbox's own do
   * (`req_` and twelve digits). Then answered entries are in request-id order as in ticket order,
   * and a cursor is found by binary search. A map from id to ticket did the same in O(1) but cost
   * ~1.3 µs of every request in process (measured side by side; its entries kept each request's id
   * alive for the collector), where this costs one string comparison.
   */
  private idsAscending = true;
  private lastRequestId = '';

  constructor(readonly capacity: number) {}

  /** Places allocated so far: at most `capacity`, and 0 after `clear`. */
  get allocated(): number {
    return this.slots.length;
  }

  /** Reserves the request's place; `finish` its ticket when answered. With capacity 0 nothing is kept. */
  arrive(arrival: JournalArrival): JournalTicket {
    this.lastTicket += 1;
    if (this.capacity === 0) return this.lastTicket;
    // Until the ring first wraps, `head` is one past the last place: allocate it now.
    let slot = this.slots[this.head];
    if (slot === undefined) this.slots.push((slot = new Slot()));
    else this.evict(slot);
    // Field by field, on purpose: Object.assign here measured ~4 µs more per request (in process).
    slot.ticket = this.lastTicket;
    slot.answered = false;
    slot.request_id = arrival.request_id;
    slot.method = arrival.method;
    slot.path = arrival.path;
    slot.querystring = arrival.querystring;
    slot.at = arrival.at;
    slot.scenario_ids = NO_SCENARIOS;
    slot.fault = null;
    slot.raw_body = undefined;
    slot.response_text = undefined;
    if (arrival.request_id <= this.lastRequestId) this.idsAscending = false;
    this.lastRequestId = arrival.request_id;
    this.head = (this.head + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    return this.lastTicket;
  }

  /**
   * Records the answer. A ticket whose place was taken since (more requests than the capacity
   * arrived while it ran) or dropped by `clear` is dropped: that request is no longer among the last N.
   */
  finish(ticket: JournalTicket, outcome: JournalOutcome): void {
    const slot = this.slotOf(ticket);
    if (!slot) return;
    if (slot.answered) this.index.remove(ticket, slot);
    else this.answered += 1;
    slot.answered = true;
    slot.status = outcome.status;
    slot.account_id = outcome.account_id;
    slot.api_key_id = outcome.api_key_id;
    slot.operation_id = outcome.operation_id;
    slot.idempotent_replayed = outcome.idempotent_replayed;
    slot.scenario_ids = outcome.scenario_ids.length === 0 ? NO_SCENARIOS : outcome.scenario_ids;
    slot.fault = outcome.fault;
    slot.raw_body = outcome.raw_body;
    slot.response_text = outcome.response_text;
    slot.response_json = outcome.response_json ?? true;
    if (outcome.at !== undefined) slot.at = outcome.at;
    this.index.add(ticket, slot);
  }

  /**
   * Removes the entries of an account (account reset and delete, contract §4.1): their places stay
   * in the ring, empty, and their bodies are let go. Returns how many there were.
   */
  forget(accountId: string): number {
    const forgotten: { ticket: number; fields: Slot }[] = [];
    for (const ticket of this.index.ticketsOf(accountId)) {
      const slot = this.slotOf(ticket)!;
      // The place keeps the fields it was indexed under until it is reused, after removeMany below.
      forgotten.push({ ticket, fields: slot });
      slot.answered = false;
      slot.ticket = 0;
      slot.raw_body = undefined;
      slot.response_text = undefined;
      slot.scenario_ids = NO_SCENARIOS;
    }
    this.index.removeMany(forgotten);
    this.answered -= forgotten.length;
    return forgotten.length;
  }

  /** Newest first, answered entries only, filtered; `has_more` when another match follows. */
  list(filter: JournalFilter): { data: JournalEntry[]; has_more: boolean } {
    if (filter.ending_before !== undefined) return this.listNewer(filter, filter.ending_before);
    let before: number | undefined;
    if (filter.starting_after !== undefined) {
      before = this.cursorTicket(filter.starting_after);
      if (before === undefined) throw new UnknownJournalCursor(filter.starting_after);
    }
    const data: JournalEntry[] = [];
    for (const ticket of this.index.narrowest(filter).descending(before)) {
      const slot = this.slotOf(ticket)!;
      if (!matches(slot, filter)) continue;
      if (data.length === filter.limit) return { data, has_more: true };
      data.push(slot.entry());
    }
    return { data, has_more: false };
  }

  /**
   * The matches newer than `cursor`, the `limit` nearest to it, newest first; `has_more` when newer
   * ones were left out. Walks up from the cursor in the narrowest index, so a poll costs O(log n + new).
   */
  private listNewer(filter: JournalFilter, cursor: string): { data: JournalEntry[]; has_more: boolean } {
    const after = this.cursorTicket(cursor);
    if (after === undefined) throw new UnknownJournalCursor(cursor);
    const newer: Slot[] = [];
    for (const ticket of this.index.narrowest(filter).ascending(after)) {
      const slot = this.slotOf(ticket)!;
      if (!matches(slot, filter)) continue;
      if (newer.length === filter.limit) return { data: newer.reverse().map((kept) => kept.entry()), has_more: true };
      newer.push(slot);
    }
    return { data: newer.reverse().map((kept) => kept.entry()), has_more: false };
  }

  /**
   * Empties the journal in O(1): the places are dropped (the collector frees them) and tickets issued
   * so far no longer name a place, so requests in flight are not recorded. Returns how many entries
   * there were.
   */
  clear(): number {
    const count = this.answered;
    this.slots = [];
    this.head = 0;
    this.size = 0;
    this.answered = 0;
    this.base = this.lastTicket;
    this.index = new JournalIndex();
    return count;
  }

  /** A place about to be reused: its entry leaves the journal and the indexes. */
  private evict(slot: Slot): void {
    if (slot.answered) {
      this.answered -= 1;
      this.index.remove(slot.ticket, slot);
    }
  }

  /** The place of a ticket still in the ring, or undefined. */
  private slotOf(ticket: number): Slot | undefined {
    if (ticket <= this.base || this.capacity === 0) return undefined;
    const slot = this.slots[(ticket - this.base - 1) % this.capacity];
    return slot?.ticket === ticket ? slot : undefined;
  }

  /**
   * The ticket of the newest answered entry with this request id, or undefined: by binary search
   * while request ids ascend, as the sandbox's always do; otherwise (ids from elsewhere: a test's,
   * or a `requestId({ generate })` of one's own) the ring is searched, newest first, in O(n).
   */
  private cursorTicket(requestId: string): number | undefined {
    if (this.idsAscending) return this.index.findAnswered(requestId, (ticket) => this.slotOf(ticket)!.request_id);
    for (const slot of this.newestFirst()) if (slot.request_id === requestId) return slot.ticket;
    return undefined;
  }

  private *newestFirst(): Generator<Slot> {
    for (let i = 1; i <= this.size; i++) {
      const slot = this.slots[(this.head - i + this.capacity) % this.capacity]!;
      if (slot.answered) yield slot;
    }
  }
}
