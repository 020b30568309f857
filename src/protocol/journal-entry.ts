/**
 * One journal entry: the shapes the journal shows (contract §3.4, §5.3) and the ring's place that
 * holds an entry's facts as recorded and builds the entry only when it is listed or exported.
 */
import { parse as parseQuery } from 'node:querystring';
import { headerObject } from './journal-headers.js';
import { exceedsBytes, utf8Head } from './text-bytes.js';

/** The name of the transport fault that lost an answer (`connection-reset`, …: src/scenarios/fault-effect.ts). */
export type JournalFault = string;
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
  /** The findings this request raised (contract §5.1), in the order raised. */
  finding_ids: string[];
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
  /** The query string as sent, without `?` (empty without one): the URL as the client wrote it. */
  querystring: string;
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

export const NO_SCENARIOS: readonly string[] = Object.freeze([]);
export const NO_HEADERS: readonly string[] = Object.freeze([]);

/**
 * One place of the ring, allocated when the ring first reaches it and written over from then on: a
 * busy sandbox records every request without allocating an entry per request (which the garbage
 * collector then had to copy while the entry stayed among the last N). Entries are built when
 * someone lists them.
 */
export class Slot {
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
  finding_ids: readonly string[] = NO_SCENARIOS;
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
      finding_ids: [...this.finding_ids],
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
      querystring: this.querystring,
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
    this.finding_ids = NO_SCENARIOS;
    this.request_headers = NO_HEADERS;
    this.response_headers = NO_HEADERS;
    this.weight = 0;
  }
}

/** Bytes of `text` kept under `limit`: the text itself when within it, else its head. */
export function kept(text: string, limit: number): string {
  return exceedsBytes(text, limit) ? utf8Head(text, limit) : text;
}

/** The body as sent, or null when none was sent or it was not JSON. */
export function parseBody(raw: string | undefined): unknown {
  if (raw === undefined || raw.trim() === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
