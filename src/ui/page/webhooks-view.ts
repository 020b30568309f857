/**
 * The Webhooks region (contract §4.3, §4.4): the chosen account's endpoints, and deliveries newest
 * first, each with its event and its attempts. The list comes from `GET /__admin/webhook_deliveries`.
 */
import type { WebhookAttemptView, WebhookDeliveryView } from './api-types.js';
import type { WebhookEndpointView } from './api-types-controls.js';
import { jsonView } from './json-view.js';
import { timestamp } from './time-view.js';
import { h, type VNode } from './vnode.js';

export type WebhookState = { kind: 'list'; data: WebhookDeliveryView[] };

function attemptRow(attempt: WebhookAttemptView, index: number): VNode {
  return h(
    'tr',
    {},
    h('td', {}, String(index + 1)),
    h('td', {}, timestamp(attempt.at)),
    h('td', {}, attempt.status_code === null ? '—' : String(attempt.status_code)),
    h('td', {}, attempt.error ?? ''),
    h('td', {}, attempt.duration_ms === null ? '' : `${attempt.duration_ms} ms`),
  );
}

function attemptsTable(delivery: WebhookDeliveryView): VNode {
  if (delivery.attempts.length === 0) return h('p', { class: 'muted' }, 'No attempt yet');
  return h(
    'table',
    {},
    h('caption', {}, `Attempts of ${delivery.id}`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['#', 'At', 'Status', 'Error', 'Duration'].map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    h('tbody', {}, delivery.attempts.map(attemptRow)),
  );
}

export function deliveryItem(delivery: WebhookDeliveryView): VNode {
  const attempts = `${delivery.attempts.length} ${delivery.attempts.length === 1 ? 'attempt' : 'attempts'}`;
  const next = delivery.next_attempt_at;
  return h(
    'li',
    { class: `delivery delivery-${delivery.status}`, 'data-delivery-id': delivery.id },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'status' }, delivery.status),
        ' ',
        h('span', { class: 'path' }, delivery.event.type),
        h(
          'span',
          { class: 'muted' },
          ` ${delivery.event.account_id} → ${delivery.endpoint_id} · ${attempts}${next === null ? '' : ', next '}`,
          next === null ? null : timestamp(next),
        ),
      ),
      attemptsTable(delivery),
      jsonView(delivery.event, 'event', 1),
    ),
  );
}

export function webhooksView(state: WebhookState): VNode {
  if (state.data.length === 0) return h('p', { class: 'muted' }, 'No webhook deliveries');
  return h('ul', { class: 'list', 'aria-label': 'Webhook deliveries' }, state.data.map(deliveryItem));
}

/** The endpoints of the account chosen in the region's Account select. */
export function endpointsView(accountId: string, endpoints: WebhookEndpointView[]): VNode {
  if (accountId === '') return h('p', { class: 'muted' }, 'No account chosen');
  if (endpoints.length === 0) return h('p', { class: 'muted' }, `No endpoint for ${accountId}`);
  return h(
    'ul',
    { class: 'list endpoints', 'aria-label': `Endpoints of ${accountId}` },
    endpoints.map((endpoint) =>
      h(
        'li',
        { 'data-endpoint-id': endpoint.id },
        h('span', { class: 'path' }, endpoint.url),
        h('span', { class: 'muted' }, ` ${endpoint.id} · ${endpoint.events.join(', ')}`),
      ),
    ),
  );
}

/** `"a, b c"` → `["a", "b", "c"]`; empty → undefined (the sandbox's default: every event). */
export function eventsField(text: string | undefined): string[] | undefined {
  const events = (text ?? '').split(/[\s,]+/).filter((name) => name !== '');
  return events.length === 0 ? undefined : events;
}
