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
 *
 * Its parts live beside it (the entry and its ring place: journal-entry.ts; headers: journal-headers.ts;
 * a listing page: journal-page.ts; the indexes: journal-index.ts). What stays here, about 490
 * lines, is one piece of state kept whole on purpose: the ring, the byte budget and the indexes
 * change together on every arrival, answer, drop and clear, and splitting them would expose the
 * invariants that tie them (weights summed, places reused, indexes pointing at live places).
 */
import { BODY_LIMIT_BYTES } from './body-limit.js';
import {
  kept,
  NO_HEADERS,
  NO_SCENARIOS,
  Slot,
  type JournalArrival,
  type JournalEntry,
  type JournalExchange,
  type JournalFilter,
  type JournalOutcome,
  type JournalTicket,
} from './journal-entry.js';
import { weighHeaders } from './journal-headers.js';
import { JournalIndex, JOURNAL_FILTER_FIELDS } from './journal-index.js';
import { Page, type JournalPage } from './journal-page.js';
import { HeaviestFirst } from '../store/heaviest-first.js';
import { weighText } from './text-bytes.js';

// Its parts, named where callers have always found them: the entry's shapes, its headers, a page.
export type {
  JournalArrival,
  JournalEntry,
  JournalExchange,
  JournalFault,
  JournalFilter,
  JournalOutcome,
  JournalResponse,
  JournalTicket,
  TruncatedBody,
} from './journal-entry.js';
export { headerObject, headerPairs, redactCredential, shownHeaderValue } from './journal-headers.js';
export type { JournalPage } from './journal-page.js';

/** Default of `journalBodyLimit`: the UTF-8 bytes kept of each request body and each answer body. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 64 * 1024;
/** Bodies past 1 MiB are never kept whole (contract §4.4), so a larger limit means nothing. */
export const MAX_JOURNAL_BODY_LIMIT = BODY_LIMIT_BYTES;
/** Default of `journalBudget`: what every entry of the journal together may weigh. */
export const DEFAULT_JOURNAL_BUDGET = 64 * 1024 * 1024;
/**
 * The UTF-8 bytes of one listing page at most, whatever its `limit`: it stops early with `has_more`.
 * A page is built in one turn of the event loop, and the dashboard polls it every second: 8 MiB of
 * large bodies' heads took 150-580 ms a page (measured under a 1 MB flood), every tenant waiting;
 * 2 MiB keeps a page near the ~50 ms a turn may take.
 */
export const JOURNAL_PAGE_BYTES = 2 * 1024 * 1024;
/**
 * A listing page is built in slices of about this many UTF-8 bytes of entries' JSON, a turn of the
 * event loop each (`listPageInSlices`): ~2-5 ms of CPU a slice, where the whole 2 MiB page took
 * 40-90 ms under a flood (measured in the sandbox's process, 1 MB PATCHes, a shared 2-core machine).
 */
export const JOURNAL_PAGE_SLICE_BYTES = 256 * 1024;
/** The UTF-8 bytes of a HAR export at most: a download when a test failed, not a poll, so it keeps more. */
export const HAR_BYTES = 8 * 1024 * 1024;
/**
 * What an entry weighs besides its bodies, path and query: its place, its request id, its strings
 * and its places in the indexes (measured ~580 B with a 273 B answer, README "Request journal").
 */
export const JOURNAL_ENTRY_OVERHEAD = 512;
/**
 * What the two framing headers the writer adds after the journal has recorded the answer weigh
 * (`Content-Type: application/json; charset=utf-8`, `Content-Length: N`): counted up front, so the
 * weight of an entry never grows after it is recorded.
 */
export const JOURNAL_FRAMING_HEADER_BYTES = 64;

/** The byte bounds of a journal (README "Request journal"). */
export interface JournalBudgets {
  /** UTF-8 bytes kept of each body; beyond, a head of that many bytes and the full length. */
  bodyLimit?: number;
  /** What all entries together may weigh; the heaviest account's oldest are dropped first. */
  budget?: number;
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

/** Whose weight the entries of requests without a known key count to: no account id is empty. */
const NO_ACCOUNT = '';

function ownerOf(slot: Slot): string {
  return slot.account_id ?? NO_ACCOUNT;
}

export class RequestJournal {
  /**
   * Grows by one place per arrival until it holds `capacity`, then the ring wraps. A place whose
   * entry the budget dropped is let go (undefined) and made again when the ring comes back to it,
   * so a large `capacity` costs what the budget allows, not a place per request ever seen.
   */
  private slots: Array<Slot | undefined> = [];
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
  /** What the answered entries weigh together (UTF-8 bytes of their bodies, path and query, and their overhead). */
  private weight = 0;
  /**
   * What each account's answered entries weigh (requests without a known key under NO_ACCOUNT): past
   * the budget the heaviest account's oldest entries go, so a tenant flooding large bodies pays for
   * them and a light neighbour's journal survives.
   */
  private weights = new HeaviestFirst<string>();
  readonly bodyLimit: number;
  readonly budget: number;

  constructor(
    readonly capacity: number,
    budgets: JournalBudgets = {},
  ) {
    this.bodyLimit = budgets.bodyLimit ?? DEFAULT_JOURNAL_BODY_LIMIT;
    this.budget = budgets.budget ?? DEFAULT_JOURNAL_BUDGET;
  }

  /** What the entries weigh together, in bytes: never more than `budget` once a request is recorded. */
  get bytes(): number {
    return this.weight;
  }

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
    if (slot === undefined) this.slots[this.head] = slot = new Slot();
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
    slot.finding_ids = NO_SCENARIOS;
    slot.fault = null;
    slot.raw_body = undefined;
    slot.response_text = undefined;
    slot.request_headers = arrival.headers ?? NO_HEADERS;
    slot.response_headers = NO_HEADERS;
    slot.duration_ms = -1;
    slot.weight = 0;
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
    if (slot.answered) {
      this.index.remove(ticket, slot);
      this.unweigh(slot);
    } else this.answered += 1;
    slot.answered = true;
    slot.status = outcome.status;
    slot.account_id = outcome.account_id;
    slot.api_key_id = outcome.api_key_id;
    slot.operation_id = outcome.operation_id;
    slot.idempotent_replayed = outcome.idempotent_replayed;
    slot.scenario_ids = outcome.scenario_ids.length === 0 ? NO_SCENARIOS : outcome.scenario_ids;
    slot.fault = outcome.fault;
    slot.response_json = outcome.response_json ?? true;
    if (outcome.at !== undefined) slot.at = outcome.at;
    slot.response_headers = outcome.response_headers ?? NO_HEADERS;
    slot.duration_ms = outcome.duration_ms ?? -1;
    this.keepBodies(slot, outcome.raw_body, outcome.response_text);
    this.index.add(ticket, slot);
    if (this.weight > this.budget) this.dropOldest();
  }

  /**
   * The findings (contract §5.1) a request raised, told by the findings module once the request has
   * finished: added to its entry while it is still kept (nothing happens once it is gone).
   */
  noteFindings(requestId: string, findingIds: readonly string[]): void {
    if (this.capacity === 0 || findingIds.length === 0) return;
    const ticket = this.cursorTicket(requestId);
    const slot = ticket === undefined ? undefined : this.slotOf(ticket);
    if (slot) slot.finding_ids = [...slot.finding_ids, ...findingIds];
  }

  /**
   * Keeps each body up to `bodyLimit` UTF-8 bytes (a longer one as its head, with its full length),
   * and weighs the entry. Only a body that may be over the limit is scanned; a kept head is a fresh
   * string, so the whole body is let go with its request.
   */
  private keepBodies(slot: Slot, raw: string | undefined, response: string | undefined): void {
    const limit = this.bodyLimit;
    // Headers count like bodies (contract §5.3: within the journal's byte budget).
    let weight =
      JOURNAL_ENTRY_OVERHEAD +
      slot.path.length +
      slot.querystring.length +
      weighHeaders(slot.request_headers) +
      weighHeaders(slot.response_headers) +
      (slot.status === null ? 0 : JOURNAL_FRAMING_HEADER_BYTES);
    slot.body_bytes = -1;
    slot.response_bytes = -1;
    if (raw !== undefined) {
      const head = kept(raw, limit);
      if (head !== raw) slot.body_bytes = Buffer.byteLength(raw);
      slot.raw_body = head;
      weight += head === raw ? weighText(raw) : limit;
    } else slot.raw_body = undefined;
    if (response !== undefined) {
      const head = kept(response, limit);
      if (head !== response) slot.response_bytes = Buffer.byteLength(response);
      slot.response_text = head;
      weight += head === response ? weighText(response) : limit;
    } else slot.response_text = undefined;
    slot.weight = weight;
    this.weight += weight;
    const owner = ownerOf(slot);
    this.weights.set(owner, this.weights.weightOf(owner) + weight);
  }

  /** Takes an answered entry's weight off the journal's and its account's. */
  private unweigh(slot: Slot): void {
    this.weight -= slot.weight;
    const owner = ownerOf(slot);
    this.weights.set(owner, this.weights.weightOf(owner) - slot.weight);
  }

  /**
   * Over the budget: the oldest answered entries of the heaviest account go until the journal fits
   * again (the one just answered too, when it alone weighs more than the budget). Each is O(log n)
   * off the heap of accounts and the front of that account's index, O(log n) plus amortized O(1) off
   * the lists it sits in the middle of (all entries, its operation's: a tombstone, TicketList), and
   * its place is let go.
   */
  private dropOldest(): void {
    while (this.weight > this.budget) {
      const owner = this.weights.heaviest();
      const ticket = owner === undefined ? undefined : this.index.oldestOf(owner === NO_ACCOUNT ? null : owner);
      if (ticket === undefined) return;
      const slot = this.slotOf(ticket)!;
      this.index.remove(ticket, slot);
      this.answered -= 1;
      this.unweigh(slot);
      slot.release();
      this.slots[(ticket - this.base - 1) % this.capacity] = undefined;
    }
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
      this.unweigh(slot);
      slot.release();
    }
    this.index.removeMany(forgotten);
    this.answered -= forgotten.length;
    return forgotten.length;
  }

  /** Newest first, answered entries only, filtered; `has_more` when another match follows. */
  list(filter: JournalFilter): { data: JournalEntry[]; has_more: boolean } {
    const { data, has_more } = this.listPage(filter, Infinity);
    return { data, has_more };
  }

  /**
   * `list`, where the page also stops before its entries' JSON passes `maxBytes` UTF-8 bytes (at
   * least one entry is listed), with `has_more`: the cursor continues from its last entry. Each
   * entry's JSON comes with it, to be sent as it is.
   */
  listPage(filter: JournalFilter, maxBytes: number): JournalPage {
    if (filter.ending_before !== undefined) return this.listNewer(filter, filter.ending_before, maxBytes);
    let before: number | undefined;
    if (filter.starting_after !== undefined) {
      before = this.cursorTicket(filter.starting_after);
      if (before === undefined) throw new UnknownJournalCursor(filter.starting_after);
    }
    const page = new Page(maxBytes);
    for (const ticket of this.index.narrowest(filter).descending(before)) {
      const slot = this.slotOf(ticket)!;
      if (!matches(slot, filter)) continue;
      if (page.data.length === filter.limit || !page.add(slot.entry())) return { data: page.data, json: page.json, has_more: true };
    }
    return { data: page.data, json: page.json, has_more: false };
  }

  /**
   * `listPage` built across turns of the event loop: after each `sliceBytes` of entries' JSON it
   * awaits `pause` (the caller's yield), so a page of large bodies' heads (2 MiB, 40-90 ms of CPU
   * in one turn under a flood) never holds every tenant for more than a slice. The entries are the
   * matches of the instant it is called (their tickets taken at once); one that leaves the journal
   * meanwhile (dropped by the budget, its place reused, its account reset) is left out, as it would
   * be from a page asked a moment later. Errors (an unknown cursor) are thrown before any pause.
   */
  async listPageInSlices(filter: JournalFilter, maxBytes: number, pause: () => Promise<void>, sliceBytes: number): Promise<JournalPage> {
    const newer = filter.ending_before !== undefined;
    const cursor = newer ? filter.ending_before! : filter.starting_after;
    let from: number | undefined;
    if (cursor !== undefined) {
      from = this.cursorTicket(cursor);
      if (from === undefined) throw new UnknownJournalCursor(cursor);
    }
    // One match past the limit tells `has_more`; the tickets alone are taken now (a number each).
    const tickets: number[] = [];
    const walk = this.index.narrowest(filter);
    for (const ticket of newer ? walk.ascending(from!) : walk.descending(from)) {
      if (!matches(this.slotOf(ticket)!, filter)) continue;
      tickets.push(ticket);
      if (tickets.length > filter.limit) break;
    }
    const page = new Page(maxBytes);
    let has_more = tickets.length > filter.limit;
    let sliceEnd = sliceBytes;
    for (const ticket of tickets.slice(0, filter.limit)) {
      if (page.bytes >= sliceEnd) {
        await pause();
        sliceEnd = page.bytes + sliceBytes;
      }
      const slot = this.slotOf(ticket);
      if (!slot?.answered || !matches(slot, filter)) continue;
      if (!page.add(slot.entry())) {
        has_more = true;
        break;
      }
    }
    return newer ? { data: page.data.reverse(), json: page.json.reverse(), has_more } : { data: page.data, json: page.json, has_more };
  }

  /**
   * The matches newer than `cursor`, the `limit` nearest to it (and within `maxBytes`), newest
   * first; `has_more` when newer ones were left out. Walks up from the cursor in the narrowest
   * index, so a poll costs O(log n + new).
   */
  private listNewer(filter: JournalFilter, cursor: string, maxBytes: number): JournalPage {
    const after = this.cursorTicket(cursor);
    if (after === undefined) throw new UnknownJournalCursor(cursor);
    const page = new Page(maxBytes);
    let has_more = false;
    for (const ticket of this.index.narrowest(filter).ascending(after)) {
      const slot = this.slotOf(ticket)!;
      if (!matches(slot, filter)) continue;
      if (page.data.length === filter.limit || !page.add(slot.entry())) {
        has_more = true;
        break;
      }
    }
    return { data: page.data.reverse(), json: page.json.reverse(), has_more };
  }

  /**
   * The answered entries matching `filter` (its cursors ignored), newest first, with what only the
   * HAR export shows. Lazy: a reader takes what fits its page and stops.
   */
  *exchanges(filter: Omit<JournalFilter, 'limit' | 'starting_after' | 'ending_before'>): Generator<JournalExchange> {
    const full: JournalFilter = { ...filter, limit: Infinity };
    for (const ticket of this.index.narrowest(full).descending(undefined)) {
      const slot = this.slotOf(ticket)!;
      if (matches(slot, full)) yield slot.exchange();
    }
  }

  /**
   * `exchanges`, safe to read across turns of the event loop: the tickets of the newest `max`
   * matches are taken now (a number each), and each exchange is made when it is read, from an entry
   * still kept; one that left the journal meanwhile (dropped, its place reused, its account reset)
   * is skipped. When entries were skipped, the tickets run out before `max` exchanges were read, so
   * as many more, older than the last one taken, are taken then (in the turn of that read): a reader
   * that stops after `max` gets the newest `max` matches still kept, as a one-turn read at its end
   * would, and learns that older ones remain. The journal's indexes are never walked across a pause.
   */
  *exchangesAcrossTurns(
    filter: Omit<JournalFilter, 'limit' | 'starting_after' | 'ending_before'>,
    max: number,
  ): Generator<JournalExchange> {
    const full: JournalFilter = { ...filter, limit: Infinity };
    let read = 0;
    let before: number | undefined;
    while (read < max) {
      // Tickets at or below `base` name no place (the journal was cleared): nothing older is kept.
      if (before !== undefined && before <= this.base + 1) return;
      const tickets: number[] = [];
      for (const ticket of this.index.narrowest(full).descending(before)) {
        if (tickets.length >= max - read) break;
        if (matches(this.slotOf(ticket)!, full)) tickets.push(ticket);
      }
      if (tickets.length === 0) return;
      before = tickets[tickets.length - 1];
      for (const ticket of tickets) {
        const slot = this.slotOf(ticket);
        if (!slot?.answered || !matches(slot, full)) continue;
        read += 1;
        yield slot.exchange();
      }
    }
  }

  /**
   * Empties the journal in O(1): the places are dropped (the collector frees them) and tickets issued
   * so far no longer name a place, so requests in flight are not recorded. Returns how many entries
   * there were.
   */
  clear(): number {
    const count = this.answered;
    this.weight = 0;
    this.weights = new HeaviestFirst<string>();
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
      this.unweigh(slot);
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
      const slot = this.slots[(this.head - i + this.capacity) % this.capacity];
      if (slot?.answered) yield slot;
    }
  }
}
