/**
 * Contract §5.3: `GET /__admin/requests.har`, the journal's entries as a HAR 1.2 log
 * (http://www.softwareishard.com/blog/har-12-spec/), oldest first, so a failed exchange opens in a
 * browser's developer tools (Chromium: Network panel, "Import HAR file") or any HAR viewer.
 *
 * What the HAR spec asks and the journal cannot know is stated, not invented: header and body sizes
 * on the wire are -1 ("not available"), timings other than `wait` are -1 (`send` and `receive` are
 * required, so 0), and an exchange that got no answer (a transport fault) has status 0 with the
 * fault in `_error`, as Chromium itself exports a failed request. Members of the sandbox's own start
 * with `_` (the HAR way of custom fields).
 */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-dirs.js';
import { HAR_BYTES, headerPairs, type JournalExchange } from '../protocol/request-journal.js';

export const HAR_CREATOR = 'creator-commerce-mock';
/** The JSON the sandbox writes itself; an answer without a Content-Type is one of those or none. */
const JSON_TYPE = 'application/json; charset=utf-8';

type NameValue = { name: string; value: string };

/** A header's value in a flat list, by lower-case name (the first one sent). */
function headerValue(flat: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < flat.length; i += 2) if (flat[i]!.toLowerCase() === name) return flat[i + 1];
  return undefined;
}

function queryPairs(query: Record<string, string | string[]>): NameValue[] {
  const pairs: NameValue[] = [];
  for (const name of Object.keys(query)) {
    const value = query[name]!;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push({ name, value: one });
  }
  return pairs;
}

/** The UTF-8 length of a body: the full one when only its head was kept. */
function bodyBytes(text: string | undefined, full: number | undefined): number {
  return full ?? (text === undefined ? 0 : Buffer.byteLength(text));
}

/** One journal entry as a HAR entry (HAR 1.2 `log.entries[]`). */
export function harEntry(exchange: JournalExchange): Record<string, unknown> {
  const { entry } = exchange;
  const host = headerValue(exchange.request_headers, 'host') ?? 'localhost';
  // The query as sent, not rebuilt from its parsed pairs: a replay sends the very bytes.
  const qs = exchange.querystring;
  const time = exchange.duration_ms === null ? 0 : Math.max(0, Math.round(exchange.duration_ms * 1000) / 1000);
  const request: Record<string, unknown> = {
    method: entry.method,
    url: `http://${host}${entry.path}${qs === '' ? '' : `?${qs}`}`,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerPairs(exchange.request_headers),
    queryString: queryPairs(entry.query),
    headersSize: -1,
    bodySize: exchange.request_text === undefined ? 0 : bodyBytes(exchange.request_text, exchange.request_bytes),
  };
  if (exchange.request_text !== undefined) {
    request.postData = {
      mimeType: headerValue(exchange.request_headers, 'content-type') ?? 'application/json',
      text: exchange.request_text,
      ...(exchange.request_bytes === undefined ? {} : { comment: `truncated: the first bytes of ${exchange.request_bytes}` }),
    };
  }
  const answered = entry.response !== null;
  const status = entry.response?.status ?? 0;
  const text = answered ? exchange.response_text : undefined;
  const content: Record<string, unknown> = {
    size: answered ? bodyBytes(text, exchange.response_bytes) : 0,
    mimeType: headerValue(exchange.response_headers, 'content-type') ?? (text === undefined ? 'x-unknown' : JSON_TYPE),
  };
  if (text !== undefined) content.text = text;
  if (exchange.response_bytes !== undefined) content.comment = `truncated: the first bytes of ${exchange.response_bytes}`;
  return {
    startedDateTime: entry.timestamp,
    time,
    request,
    response: {
      status,
      statusText: answered ? (STATUS_CODES[status] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerPairs(exchange.response_headers),
      content,
      redirectURL: headerValue(exchange.response_headers, 'location') ?? '',
      headersSize: -1,
      bodySize: answered ? bodyBytes(text, exchange.response_bytes) : -1,
      ...(entry.fault === null ? {} : { _error: entry.fault }),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: time, receive: 0, ssl: -1 },
    _request_id: entry.request_id,
    _account_id: entry.account_id,
    _api_key_id: entry.api_key_id,
    _operation_id: entry.operation_id,
    _scenario_ids: entry.scenario_ids,
    _idempotent_replayed: entry.idempotent_replayed,
  };
}

/** Room for the log's envelope around its entries (creator, comment). */
const LOG_ENVELOPE_BYTES = 1024;

export interface HarLog {
  /** The JSON text of the whole document. */
  json: string;
  /** Entries in it. */
  count: number;
  /** Matching entries older than the first one, left out by `limit` or the byte bound. */
  omitted: boolean;
}

/** A log being filled: entries newest first, each serialized once, within the limit and the byte bound. */
class HarBuilder {
  private readonly parts: string[] = [];
  /** UTF-8 bytes of the log so far (entries and the room of its envelope). */
  used = LOG_ENVELOPE_BYTES;
  private omitted = false;

  constructor(
    private readonly limit: number,
    private readonly maxBytes: number,
  ) {}

  /** Adds the next older exchange; false when the log is full (it and the older ones are left out). */
  add(exchange: JournalExchange): boolean {
    if (this.parts.length === this.limit) {
      this.omitted = true;
      return false;
    }
    const json = JSON.stringify(harEntry(exchange));
    const bytes = Buffer.byteLength(json) + 1;
    if (this.parts.length > 0 && this.used + bytes > this.maxBytes) {
      this.omitted = true;
      return false;
    }
    this.used += bytes;
    this.parts.push(json);
    return true;
  }

  finish(version: string): HarLog {
    const parts = this.parts.reverse();
    const creator = JSON.stringify({ name: HAR_CREATOR, version });
    const comment = this.omitted
      ? `,"comment":${JSON.stringify(`the newest ${parts.length} matching journal entries; older ones were left out (limit or size)`)}`
      : '';
    return {
      json: `{"log":{"version":"1.2","creator":${creator},"pages":[],"entries":[${parts.join(',')}]${comment}}}`,
      count: parts.length,
      omitted: this.omitted,
    };
  }
}

/**
 * The newest `limit` matching entries that fit in `maxBytes`, written oldest first (as HAR viewers
 * read a log). Each entry is serialized once, to be measured and sent as it is.
 */
export function harLog(exchanges: Iterable<JournalExchange>, limit: number, version: string, maxBytes = HAR_BYTES): HarLog {
  const log = new HarBuilder(limit, maxBytes);
  for (const exchange of exchanges) if (!log.add(exchange)) break;
  return log.finish(version);
}

/**
 * `harLog` built across turns of the event loop: after each `sliceBytes` of entries it awaits
 * `pause` (8 MiB of large bodies' heads in one turn held every tenant for ~100+ ms). `exchanges`
 * must stay valid across the pauses (the journal's `exchangesAcrossTurns`).
 */
export async function harLogInSlices(
  exchanges: Iterable<JournalExchange>,
  limit: number,
  version: string,
  pause: () => Promise<void>,
  sliceBytes: number,
  maxBytes = HAR_BYTES,
): Promise<HarLog> {
  const log = new HarBuilder(limit, maxBytes);
  let sliceEnd = LOG_ENVELOPE_BYTES + sliceBytes;
  for (const exchange of exchanges) {
    if (!log.add(exchange)) break;
    if (log.used >= sliceEnd) {
      await pause();
      sliceEnd = log.used + sliceBytes;
    }
  }
  return log.finish(version);
}

let version: string | undefined;

/** The package's version, for `log.creator.version`: read once, at the first export. */
export function packageVersion(): string {
  if (version === undefined) {
    try {
      const declared = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown }).version;
      version = typeof declared === 'string' ? declared : '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}
