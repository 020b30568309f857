/** The Requests region (contract §4.4): journal entries, newest first; each opens its request and response. */
import type { JournalEntryView, TruncatedBodyView } from './api-types.js';
import type { JournalEntryWithFindings } from './api-types-report.js';
import { jsonView } from './json-view.js';
import { timestamp } from './time-view.js';
import { h, type Child, type VNode } from './vnode.js';

/** The status filter's choices: a class of statuses, or "no answer" (a transport fault answered nothing). */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export function statusClass(status: number | null): StatusClass {
  if (status === null) return 'none';
  return `${Math.min(5, Math.max(2, Math.floor(status / 100)))}xx` as StatusClass;
}

/** Whether an entry passes the status filter ('' lets every entry through). */
export function matchesStatus(entry: JournalEntryView, filter: StatusClass | ''): boolean {
  return filter === '' || statusClass(entry.status) === filter;
}

function queryText(query: JournalEntryView['query']): string {
  const pairs = Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => `${name}=${one}`));
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The findings an entry's request raised (contract §5.1); none when the sandbox lists none. */
export function findingIds(entry: JournalEntryWithFindings): string[] {
  return entry.finding_ids ?? [];
}

function facts(entry: JournalEntryWithFindings): VNode {
  const rows: Array<[string, Child]> = [
    ['Request id', entry.request_id],
    ['Time', timestamp(entry.timestamp)],
    ['Operation', entry.operation_id ?? '(none)'],
    ['Account', entry.account_id ?? '(no known key)'],
    ['API key', entry.api_key_id ?? '(none)'],
  ];
  if (entry.idempotent_replayed) rows.push(['Idempotency', 'replayed a stored answer']);
  if (entry.scenario_ids.length > 0) rows.push(['Scenarios', entry.scenario_ids.join(', ')]);
  if (entry.fault !== null) rows.push(['Fault', entry.fault]);
  if (findingIds(entry).length > 0) rows.push(['Findings', findingIds(entry).join(', ')]);
  return h('dl', { class: 'facts' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]).flat());
}

/** A body the journal kept only the head of (over its body limit): its length, and the head as text. */
function truncatedBody(cut: TruncatedBodyView): VNode[] {
  const kept = new TextEncoder().encode(cut.head).length;
  return [
    h('p', { class: 'muted' }, `Truncated: ${cut.bytes.toLocaleString('en-US')} bytes, the first ${kept.toLocaleString('en-US')} kept`),
    h('pre', { class: 'truncated' }, cut.head),
  ];
}

/** A body as the journal kept it: whole (a JSON tree), truncated (its length and head), or none. */
function bodyView(body: unknown, cut: TruncatedBodyView | undefined, none: string): Child[] {
  if (cut) return truncatedBody(cut);
  return [body === null ? h('p', { class: 'muted' }, none) : jsonView(body, 'body', 2)];
}

/** One entry: a summary line, and the request (query, body) and response (status, body) when opened. */
export function journalEntry(entry: JournalEntryWithFindings): VNode {
  const raised = findingIds(entry).length > 0;
  const status = entry.status === null ? 'no answer' : String(entry.status);
  const response = entry.response;
  return h(
    'li',
    { class: `entry status-${statusClass(entry.status)}`, 'data-request-id': entry.request_id },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'status' }, status),
        ' ',
        // Named for a screen reader and a test alike; the flag is the sighted reader's mark.
        raised
          ? [h('span', { class: 'badge raised', role: 'img', 'aria-label': 'raised a finding', title: 'raised a finding' }, '⚑'), ' ']
          : null,
        h('span', { class: 'method' }, entry.method),
        ' ',
        h('span', { class: 'path' }, entry.path + queryText(entry.query)),
        h('span', { class: 'muted' }, ` ${entry.operation_id ?? ''} `, timestamp(entry.timestamp)),
      ),
      facts(entry),
      h('h4', {}, 'Request body'),
      ...bodyView(entry.body, entry.body_truncated, 'No JSON body'),
      h('h4', {}, 'Response'),
      response === null
        ? h('p', { class: 'muted' }, 'Nothing was answered')
        : [h('p', {}, `Status ${response.status}`), ...bodyView(response.body, response.body_truncated, 'No body kept')],
    ),
  );
}

/** The same request: a sandbox reset restarts request ids, so the id alone does not say it. */
function sameEntry(a: JournalEntryView, b: JournalEntryView): boolean {
  return a.request_id === b.request_id && a.timestamp === b.timestamp && a.method === b.method && a.path === b.path;
}

/**
 * The journal as the page holds it: the newest entries first, at most `capacity`. A poll asks for
 * the entries newer than the second newest (`cursor`), so its answer has to end with the newest one
 * shown: when it does not, the journal is no longer the one shown (emptied, the account reset, the
 * sandbox reset and its request ids restarted) and the page starts over.
 */
export class JournalFeed {
  entries: JournalEntryView[] = [];

  constructor(readonly capacity = 200) {}

  /** `ending_before` of the next poll; undefined when nothing is shown yet (read the newest page). */
  get cursor(): string | undefined {
    return (this.entries[1] ?? this.entries[0])?.request_id;
  }

  /**
   * Adds the answer to a poll (newest first). Returns the entries that were new, newest first, or
   * undefined when the answer shows another journal than the one shown: start over.
   */
  addNewer(page: JournalEntryView[]): JournalEntryView[] | undefined {
    let newer = page;
    if (this.entries.length >= 2) {
      const nearest = page.at(-1);
      if (nearest === undefined || !sameEntry(nearest, this.entries[0]!)) return undefined;
      newer = page.slice(0, -1);
    }
    const known = new Set(this.entries.map((entry) => entry.request_id));
    const fresh = newer.filter((entry) => !known.has(entry.request_id));
    this.entries = [...fresh, ...this.entries].slice(0, this.capacity);
    return fresh;
  }

  clear(): void {
    this.entries = [];
  }
}
