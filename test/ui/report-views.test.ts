/** Contract §5.1–§5.3 in the dashboard: the Findings, Coverage and download views, rendered in Node (they hold no DOM). */
import { describe, expect, it, vi } from 'vitest';
import type { JournalEntryView } from '../../src/ui/page/api-types.js';
import type { CoverageView, FindingView } from '../../src/ui/page/api-types-report.js';
import { accountItem } from '../../src/ui/page/accounts-view.js';
import { coverageView } from '../../src/ui/page/coverage-view.js';
import { findingItem, findingsList } from '../../src/ui/page/findings-view.js';
import { journalEntry } from '../../src/ui/page/journal-view.js';
import { findAll, textOf, type VNode } from '../../src/ui/page/vnode.js';

const noop = () => {};
const byTag = (node: VNode, tag: string) => findAll(node, (inner) => inner.tag === tag);
const labelled = (node: VNode, label: string) => findAll(node, (inner) => inner.attrs['aria-label'] === label);

function finding(changes: Partial<FindingView> = {}): FindingView {
  return {
    id: 'fnd_000000000001',
    rule: 'retry-after-ignored',
    severity: 'error',
    section: 'spec §8',
    message: 'Retry-After asked 30 s; the next request came 0.2 s later. Wait the seconds Retry-After gives.',
    account_id: 'acct_free_default',
    api_key_id: 'key_free_default',
    operation_id: 'listProducts',
    request_ids: ['req_000000000003', 'req_000000000004'],
    delivery_ids: [],
    created_at: '2026-01-15T12:00:00.000Z',
    ...changes,
  };
}

const ENTRY: JournalEntryView = {
  request_id: 'req_000000000004',
  method: 'GET',
  path: '/v1/products',
  query: {},
  status: 200,
  account_id: 'acct_free_default',
  api_key_id: 'key_free_default',
  operation_id: 'listProducts',
  idempotent_replayed: false,
  scenario_ids: [],
  fault: null,
  timestamp: '2026-01-15T12:00:00.000Z',
  headers: {},
  body: null,
  response: { status: 200, headers: {}, body: null },
  finding_ids: [],
};

const COVERAGE: CoverageView = {
  account_id: 'acct_free_default',
  operations: [
    {
      operation_id: 'createProduct',
      method: 'POST',
      path: '/v1/products',
      calls: 0,
      statuses: {},
      documented_statuses: [201, 422],
      untested_statuses: [201, 422],
    },
    {
      operation_id: 'listProducts',
      method: 'GET',
      path: '/v1/products',
      calls: 3,
      statuses: { '429': 1, '200': 2 },
      documented_statuses: [200, 401, 429],
      untested_statuses: [401],
    },
  ],
  summary: { operations_called: 1, operations_total: 2, statuses_seen: 2, statuses_documented: 5 },
};

describe('the Findings region (contract §5.1)', () => {
  it('contract §5.1: a finding shows its severity, rule and message; opened, its section, scope and requests', () => {
    const view = findingItem(finding(), true, { toggle: noop, showRequests: noop });
    expect(textOf(byTag(view, 'summary')[0])).toBe(
      'error retry-after-ignored Retry-After asked 30 s; the next request came 0.2 s later. Wait the seconds Retry-After gives. 2026-01-15T12:00:00.000Z',
    );
    const text = textOf(view);
    expect(text).toContain('Section spec §8');
    expect(text).toContain('Operation listProducts');
    expect(text).toContain('2 requests req_000000000003 req_000000000004');
    expect(byTag(view, 'details')[0]!.attrs.open).toBe(true);
  });

  it('contract §5.1: "Show in Requests" hands the finding to the journal view', () => {
    const showRequests = vi.fn();
    const shown = finding();
    const [button] = labelled(findingItem(shown, true, { toggle: noop, showRequests }), 'Show requests of fnd_000000000001');
    (button!.attrs.onclick as (event: Event) => void)({} as Event);
    expect(showRequests).toHaveBeenCalledWith(shown);
  });

  it('contract §5.1: a finding shown by a delivery only has no requests to show', () => {
    const view = findingItem(finding({ request_ids: [], delivery_ids: ['wd_000000000001'], rule: 'webhook-delivery-failed' }), true, {
      toggle: noop,
      showRequests: noop,
    });
    expect(textOf(view)).toContain('Deliveries wd_000000000001');
    expect(labelled(view, 'Show requests of fnd_000000000001')).toEqual([]);
  });

  it('contract §5.1: the list keeps the order the API answers (newest first), and an empty one says so', () => {
    const list = findingsList([finding({ id: 'fnd_2' }), finding({ id: 'fnd_1' })], new Set(['fnd_1']), {
      toggle: noop,
      showRequests: noop,
    });
    const items = findAll(list[0], (node) => node.attrs['data-finding-id'] !== undefined);
    expect(items.map((item) => item.attrs['data-finding-id'])).toEqual(['fnd_2', 'fnd_1']);
    expect(byTag(items[1]!, 'details')[0]!.attrs.open).toBe(true);
    expect(textOf(findingsList([], new Set(), { toggle: noop, showRequests: noop })[0])).toContain('No findings');
  });

  it('contract §5.1: a journal entry whose request raised a finding is marked, by an accessible name', () => {
    const raised = journalEntry({ ...ENTRY, finding_ids: ['fnd_000000000001'] });
    expect(labelled(raised, 'raised a finding')).toHaveLength(1);
    expect(textOf(raised)).toContain('Findings fnd_000000000001');
    expect(labelled(journalEntry({ ...ENTRY, finding_ids: [] }), 'raised a finding')).toEqual([]);
    // A sandbox that lists no findings in its journal: no mark either.
    expect(labelled(journalEntry(ENTRY), 'raised a finding')).toEqual([]);
  });
});

describe("an account's coverage and downloads (contract §5.2, §5.3)", () => {
  it('contract §5.2: operations × statuses seen (with counts) and untested, the called operations first', () => {
    const view = coverageView('acct_free_default', COVERAGE);
    const [table] = labelled(view, 'Coverage of acct_free_default');
    const rows = byTag(byTag(table!, 'tbody')[0]!, 'tr').map(textOf);
    expect(rows).toEqual(['listProducts 3 200 ×2, 429 ×1 401', 'createProduct 0 — 201, 422']);
    expect(textOf(byTag(view, 'summary')[0])).toBe('Coverage 1 of 2 operations called, 2 of 5 documented statuses seen');
  });

  it('contract §5.2: while read, and when it cannot be read, the view says so', () => {
    expect(textOf(coverageView('acct_x', undefined))).toBe('Loading coverage…');
    expect(textOf(coverageView('acct_x', { failed: 'HTTP 404' }))).toBe('Coverage unavailable: HTTP 404');
  });

  it('contract §5.3: an opened account offers Download HAR and Download snapshot, named after it', () => {
    const download = vi.fn();
    const account = {
      id: 'acct_free_default',
      plan: 'free',
      clock: { now: '2026-01-15T12:00:00.000Z', mode: 'frozen', shared: true },
    } as never;
    const actions = {
      toggle: noop,
      reset: noop,
      remove: noop,
      reload: noop,
      setClock: noop,
      advanceClock: noop,
      setClockTime: noop,
      download,
    };
    const opened = accountItem(account, {}, true, actions, COVERAGE);
    for (const [label, what] of [
      ['Download HAR of acct_free_default', 'har'],
      ['Download snapshot of acct_free_default', 'snapshot'],
    ] as const) {
      const [button] = labelled(opened, label);
      (button!.attrs.onclick as (event: Event) => void)({} as Event);
      expect(download).toHaveBeenLastCalledWith('acct_free_default', what);
    }
    expect(labelled(opened, 'Coverage of acct_free_default')).toHaveLength(1);
    // Closed: neither the downloads nor the coverage are drawn (nor read).
    const closed = accountItem(account, undefined, false, actions);
    expect(labelled(closed, 'Download HAR of acct_free_default')).toEqual([]);
    expect(labelled(closed, 'Coverage of acct_free_default')).toEqual([]);
  });
});
