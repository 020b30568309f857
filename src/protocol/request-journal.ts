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
import { BODY_LIMIT_BYTES } from './body-limit.js';
import { JournalIndex, JOURNAL_FILTER_FIELDS } from './journal-index.js';
import { exceedsBytes, utf8Head, weighText } from './text-bytes.js';

/** Default of `journalBodyLimit`: the UTF-8 bytes kept of each request body and each answer body. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 64 * 1024;
/** Bodies past 1 MiB are never kept whole (contract §4.4), so a larger limit means nothing. */
export const MAX_JOURNAL_BODY_LIMIT = BODY_LIMIT_BYTES;
/** Default of `journalBudget`: what every entry of the journal together may weigh. */
export const DEFAULT_JOURNAL_BUDGET = 64 * 1024 * 1024;
/** The UTF-8 bytes of one listing page at most, whatever its `limit`: it stops early with `has_more`. */
export const JOURNAL_PAGE_BYTES = 8 * 1024 * 1024;
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

/** Header names whose values are credentials: the journal shows their scheme and last four characters (contract §5.3). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-admin-token']);

/**
 * `Bearer cc_test_…a1b2` → `Bearer …a1b2` (contract §5.3): the scheme and the token's last four
 * characters. A value without a scheme shows `…` and its last four; a token of four characters or
 * fewer shows none of them, since its last four would be the whole secret.
 */
export function redactCredential(value: string): string {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  const scheme = space === -1 ? '' : `${trimmed.slice(0, space)} `;
  const token = space === -1 ? trimmed : trimmed.slice(space).trim();
  return `${scheme}…${token.length > 4 ? token.slice(-4) : ''}`;
}

/** A header value as the journal shows it: credentials redacted, everything else as sent. */
export function shownHeaderValue(lowerCaseName: string, value: string): string {
  return CREDENTIAL_HEADERS.has(lowerCaseName) ? redactCredential(value) : value;
}

/**
 * A flat `[name, value, name, value…]` list (Node's `rawHeaders`, the writer's header list) as one
 * object of lower-case names, credentials redacted. A name sent twice is joined as Node joins it
 * (`cookie` with `; `, others with `, `).
 */
export function headerObject(flat: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!.toLowerCase();
    const value = shownHeaderValue(name, flat[i + 1]!);
    const before = headers[name];
    headers[name] = before === undefined ? value : `${before}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return headers;
}

/** The same list as `{name, value}` pairs in the order and case sent, credentials redacted (HAR's shape). */
export function headerPairs(flat: readonly string[]): Array<{ name: string; value: string }> {
  const pairs: Array<{ name: string; value: string }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    pairs.push({ name: flat[i]!, value: shownHeaderValue(flat[i]!.toLowerCase(), flat[i + 1]!) });
  return pairs;
}

/** What a flat header list weighs: 3 bytes a unit at most, as short bodies are weighed (src/protocol/text-bytes.ts). */
function weighHeaders(flat: readonly string[]): number {
  let units = 0;
  for (let i = 0; i < flat.length; i += 1) units += flat[i]!.length;
  return units * 3;
}

/** The byte bounds of a journal (README "Request journal"). */
export interface JournalBudgets {
  /** UTF-8 bytes kept of each body; beyond, a head of that many bytes and the full length. */
  bodyLimit?: number;
  /** What all entries together may weigh; the oldest are dropped first. */
  budget?: number;
}

/**
 * A body over `journalBodyLimit`, in place of it: `body` is then null, so nothing mistakes a head
 * for the body. `bytes` is the whole body's UTF-8 length; `head` its first bytes (at most the limit,
 * on a character boundary), as text.
 */
export interface TruncatedBody {
  bytes: number;
  head: string;
}

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
  /** The request's headers (contract §5.3), lower-case names, `Authorization` redacted to its scheme and last four characters. */
  headers: Record<string, string>;
  /** The JSON body as sent (before defaults were filled in); null when none was sent, it was not JSON, or it was truncated. */
  body: unknown;
  /** Only when the body was over `journalBodyLimit` (then `body` is null). */
  body_truncated?: TruncatedBody;
  /** What the client got (contract §4.4); null when nothing was answered (a fault before the operation). */
  response: JournalResponse | null;
}

/** An answer as the journal shows it: its status, and its body as sent (the JSON value, or the text when not JSON; null without one or past 1 MiB). */
export interface JournalResponse {
  status: number;
  /** The answer's headers as written (contract §5.3), lower-case names. */
  headers: Record<string, string>;
  body: unknown;
  /** Only when the answer was over `journalBodyLimit` (then `body` is null). */
  body_truncated?: TruncatedBody;
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
  /**
   * The request's headers as Node's `rawHeaders` gives them (`[name, value, …]`, case and order as
   * sent): kept by reference, the list Node has already built, and turned into the entry's
   * `headers` only when listed.
   */
  headers?: readonly string[];
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
  /**
   * The answer's headers, `[name, value, …]` in the order written: the writer's own list, kept by
   * reference (its framing headers are added to it as it writes, see JOURNAL_FRAMING_HEADER_BYTES).
   */
  response_headers?: readonly string[];
  /** Real milliseconds from arrival to the answer (HAR's `time`); never shown in the JSON entries, which stay deterministic. */
  duration_ms?: number;
}

/**
 * An entry with what only the HAR export shows (src/admin/har-log.ts): the header lists in the
 * order and case sent, the bodies as text, and the real duration.
 */
export interface JournalExchange {
  entry: JournalEntry;
  request_headers: readonly string[];
  /** Empty when nothing was answered. */
  response_headers: readonly string[];
  /** The request body as sent (its head when over `journalBodyLimit`); undefined without one. */
  request_text: string | undefined;
  /** The whole request body's UTF-8 length when `request_text` is only its head. */
  request_bytes: number | undefined;
  response_text: string | undefined;
  response_bytes: number | undefined;
  /** Real ms from arrival to answer; null when unknown. */
  duration_ms: number | null;
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
const NO_HEADERS: readonly string[] = Object.freeze([]);

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
  /** The whole request body's UTF-8 length when `raw_body` holds only its head; -1 when it is whole. */
  body_bytes = -1;
  response_text: string | undefined = undefined;
  /** Likewise for `response_text`. */
  response_bytes = -1;
  response_json = true;
  request_headers: readonly string[] = NO_HEADERS;
  response_headers: readonly string[] = NO_HEADERS;
  duration_ms = -1;
  /** What the entry counts against the journal's budget; 0 while in flight or empty. */
  weight = 0;

  entry(): JournalEntry {
    // In the order of contract §3.4; the truncation members only when a body was cut.
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
      headers: headerObject(this.request_headers),
      body: this.body_bytes < 0 ? parseBody(this.raw_body) : null,
      ...(this.body_bytes < 0 ? undefined : { body_truncated: { bytes: this.body_bytes, head: this.raw_body ?? '' } }),
      response: this.status === null ? null : this.response(this.status),
    };
  }

  private response(status: number): JournalResponse {
    const headers = headerObject(this.response_headers);
    if (this.response_bytes >= 0) {
      return { status, headers, body: null, body_truncated: { bytes: this.response_bytes, head: this.response_text ?? '' } };
    }
    if (this.response_text === undefined) return { status, headers, body: null };
    return { status, headers, body: this.response_json ? parseBody(this.response_text) : this.response_text };
  }

  exchange(): JournalExchange {
    return {
      entry: this.entry(),
      request_headers: this.request_headers,
      response_headers: this.status === null ? NO_HEADERS : this.response_headers,
      request_text: this.raw_body,
      request_bytes: this.body_bytes < 0 ? undefined : this.body_bytes,
      response_text: this.response_text,
      response_bytes: this.response_bytes < 0 ? undefined : this.response_bytes,
      duration_ms: this.duration_ms < 0 ? null : this.duration_ms,
    };
  }

  /** Lets go of what the entry holds (its place may stay in the ring, empty). */
  release(): void {
    this.answered = false;
    this.ticket = 0;
    this.raw_body = undefined;
    this.response_text = undefined;
    this.scenario_ids = NO_SCENARIOS;
    this.request_headers = NO_HEADERS;
    this.response_headers = NO_HEADERS;
    this.weight = 0;
  }
}

/** Bytes of `text` kept under `limit`: the text itself when within it, else its head. */
function kept(text: string, limit: number): string {
  return exceedsBytes(text, limit) ? utf8Head(text, limit) : text;
}

/**
 * A listing page being filled: its entries and, when it has a byte cap, each one's JSON (serialized
 * once, here, to be measured, and sent as it is), within `max` UTF-8 bytes. The first entry always
 * fits, so a cursor always moves on.
 */
class Page {
  readonly data: JournalEntry[] = [];
  readonly json: string[] = [];
  private used = 0;
  constructor(private readonly max: number) {}

  /** Adds `entry` when it fits; false when the page is full. */
  add(entry: JournalEntry): boolean {
    if (this.max === Infinity) {
      this.data.push(entry);
      return true;
    }
    const json = JSON.stringify(entry);
    const bytes = Buffer.byteLength(json) + 1;
    if (this.data.length > 0 && this.used + bytes > this.max) return false;
    this.used += bytes;
    this.data.push(entry);
    this.json.push(json);
    return true;
  }
}

/** A listing: the entries, and their JSON when the page was capped in bytes (see `Page`). */
export interface JournalPage {
  data: JournalEntry[];
  has_more: boolean;
  /** Each entry's JSON, in `data`'s order; empty when the listing had no byte cap. */
  json: string[];
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
      this.weight -= slot.weight;
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
  }

  /**
   * Over the budget: the oldest answered entries go until the journal fits again (the one just
   * answered too, when it alone weighs more than the budget). Each is O(1) off the front of the
   * indexes, and its place is let go.
   */
  private dropOldest(): void {
    while (this.weight > this.budget) {
      const ticket = this.index.oldest();
      if (ticket === undefined) return;
      const slot = this.slotOf(ticket)!;
      this.index.remove(ticket, slot);
      this.answered -= 1;
      this.weight -= slot.weight;
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
      this.weight -= slot.weight;
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
   * Empties the journal in O(1): the places are dropped (the collector frees them) and tickets issued
   * so far no longer name a place, so requests in flight are not recorded. Returns how many entries
   * there were.
   */
  clear(): number {
    const count = this.answered;
    this.weight = 0;
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
      this.weight -= slot.weight;
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
