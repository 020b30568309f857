/**
 * The Findings region (contract §5.1): what the sandbox noticed about the clients, newest first; a
 * finding opens its section, scope and requests, and shows those requests in the Requests region.
 */
import type { FindingView } from './api-types-report.js';
import { timestamp } from './time-view.js';
import { h, type VNode } from './vnode.js';

export interface FindingActions {
  /** The finding's section was opened or closed. */
  toggle: (id: string, open: boolean) => void;
  /** Show (only) the finding's requests in the Requests region. */
  showRequests: (finding: FindingView) => void;
}

function facts(finding: FindingView): VNode {
  const rows: Array<[string, string]> = [
    ['Finding id', finding.id],
    ['Section', finding.section],
    ['Account', finding.account_id ?? '(no known key)'],
    ['API key', finding.api_key_id ?? '(none)'],
    ['Operation', finding.operation_id ?? '(none)'],
  ];
  if (finding.delivery_ids.length > 0) rows.push(['Deliveries', finding.delivery_ids.join(', ')]);
  return h('dl', { class: 'facts' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]).flat());
}

/** One finding: severity, rule and message; opened, its facts and its requests (each a link into the journal). */
export function findingItem(finding: FindingView, open: boolean, actions: FindingActions): VNode {
  const count = finding.request_ids.length;
  return h(
    'li',
    { class: `finding severity-${finding.severity}`, 'data-finding-id': finding.id },
    h(
      'details',
      { open, ontoggle: (event: Event) => actions.toggle(finding.id, (event.currentTarget as { open?: boolean } | null)?.open === true) },
      h(
        'summary',
        {},
        h('span', { class: `badge severity-${finding.severity}` }, finding.severity),
        ' ',
        h('span', { class: 'path' }, finding.rule),
        ' ',
        h('span', {}, finding.message),
        h('span', { class: 'muted' }, ' ', timestamp(finding.created_at)),
      ),
      facts(finding),
      h('h4', {}, count === 1 ? '1 request' : `${count} requests`),
      count === 0
        ? h('p', { class: 'muted' }, 'No request shows it (a webhook delivery does).')
        : [
            h(
              'ol',
              { class: 'request-ids' },
              finding.request_ids.map((id) => h('li', { class: 'path' }, id)),
            ),
            h(
              'button',
              { type: 'button', 'aria-label': `Show requests of ${finding.id}`, onclick: () => actions.showRequests(finding) },
              'Show in Requests',
            ),
          ],
    ),
  );
}

/** The list, as the API answers it (newest first); an empty one says so. */
export function findingsList(findings: FindingView[], open: ReadonlySet<string>, actions: FindingActions): VNode[] {
  if (findings.length === 0) return [h('p', { class: 'muted' }, 'No findings: every client behaved so far.')];
  return [
    h(
      'ul',
      { class: 'list', 'aria-label': 'Findings, newest first' },
      findings.map((finding) => findingItem(finding, open.has(finding.id), actions)),
    ),
  ];
}
