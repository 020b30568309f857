/**
 * An account's coverage (contract §5.2), inside its opened section: per /v1 operation the calls,
 * the statuses answered (with counts) and the documented statuses never answered.
 */
import type { CoverageOperationView, CoverageView } from './api-types-report.js';
import { h, type VNode } from './vnode.js';

function statusesText(statuses: Record<string, number>): string {
  const seen = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b));
  return seen.length === 0 ? '—' : seen.map(([status, count]) => `${status} ×${count}`).join(', ');
}

function row(operation: CoverageOperationView): VNode {
  return h(
    'tr',
    { class: operation.calls === 0 ? 'uncalled' : undefined },
    h('th', { scope: 'row' }, h('span', { class: 'path' }, operation.operation_id)),
    h('td', {}, String(operation.calls)),
    h('td', {}, statusesText(operation.statuses)),
    h('td', {}, operation.untested_statuses.length === 0 ? '—' : operation.untested_statuses.join(', ')),
  );
}

/** What an opened account shows of its coverage: the answer once read, or why it could not be read. */
export type CoverageShown = CoverageView | { failed: string };

/** The coverage table of `accountId` (undefined while it is read). */
export function coverageView(accountId: string, coverage: CoverageShown | undefined): VNode {
  if (coverage === undefined) return h('p', { class: 'muted' }, 'Loading coverage…');
  if ('failed' in coverage) return h('p', { class: 'muted' }, `Coverage unavailable: ${coverage.failed}`);
  const { summary } = coverage;
  // Called operations first (most calls first), then the uncalled ones by name: what was exercised leads.
  const operations = [...coverage.operations].sort((a, b) => b.calls - a.calls || a.operation_id.localeCompare(b.operation_id));
  return h(
    'details',
    { class: 'coverage' },
    h(
      'summary',
      {},
      h('h4', {}, 'Coverage'),
      h(
        'span',
        { class: 'muted' },
        ` ${summary.operations_called} of ${summary.operations_total} operations called, ` +
          `${summary.statuses_seen} of ${summary.statuses_documented} documented statuses seen`,
      ),
    ),
    h(
      'table',
      { 'aria-label': `Coverage of ${accountId}` },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Operation'),
          h('th', { scope: 'col' }, 'Calls'),
          h('th', { scope: 'col' }, 'Statuses seen'),
          h('th', { scope: 'col' }, 'Untested'),
        ),
      ),
      h('tbody', {}, operations.map(row)),
    ),
  );
}
