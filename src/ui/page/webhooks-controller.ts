/**
 * The Webhooks region (contract §4.3, §4.4): for the chosen account, its endpoints, a form to add
 * one and a form to trigger an event; below, every delivery, newest first, polled. An opened
 * delivery stays open as its attempts arrive.
 */
import { api } from './admin-session.js';
import type { ListPage, WebhookDeliveryView } from './api-types.js';
import type { WebhookEndpointView, WebhookEventView } from './api-types-controls.js';
import { byId, showIfChanged } from './dom.js';
import { fieldsOf } from './forms.js';
import { describe } from './notice.js';
import { endpointsView, eventsField, webhooksView, type WebhookState } from './webhooks-view.js';

export interface WebhooksController {
  refresh: () => Promise<void>;
  createEndpoint: (event: Event) => void;
  trigger: (event: Event) => void;
  /** The Account select changed: its endpoints are shown. */
  chosen: () => void;
}

/** Each listed delivery's id and its `<details>`. */
function deliveryDetails(list: HTMLElement): Array<[string, HTMLDetailsElement]> {
  return [...list.querySelectorAll<HTMLElement>('li[data-delivery-id]')].flatMap((item) => {
    const details = item.querySelector<HTMLDetailsElement>(':scope > details');
    return details ? [[item.dataset.deliveryId!, details] as [string, HTMLDetailsElement]] : [];
  });
}

export function webhooksController(): WebhooksController {
  const result = (text: string) => (byId('webhooks-result').textContent = text);
  const account = () => byId<HTMLSelectElement>('webhooks-account').value;

  const refreshDeliveries = async () => {
    const state: WebhookState = {
      kind: 'list',
      data: (await api.call<ListPage<WebhookDeliveryView>>('GET', '/webhook_deliveries?limit=50')).data,
    };
    const list = byId('webhooks-list');
    // A delivery that changed (an attempt made, a retry due) redraws the list: the ones opened stay open.
    const opened = new Set(deliveryDetails(list).flatMap(([id, details]) => (details.open ? [id] : [])));
    showIfChanged(list, state, () => [webhooksView(state)]);
    for (const [id, details] of deliveryDetails(list)) if (opened.has(id)) details.open = true;
  };

  const refreshEndpoints = async () => {
    const id = account();
    const endpoints =
      id === ''
        ? []
        : (await api.call<ListPage<WebhookEndpointView>>('GET', `/webhook_endpoints?account_id=${encodeURIComponent(id)}`)).data;
    // The account may have changed while the answer travelled: show only the chosen one's.
    if (id !== account()) return;
    showIfChanged(byId('webhooks-endpoints'), [id, endpoints], () => [endpointsView(id, endpoints)]);
  };

  const refresh = async () => {
    await Promise.all([refreshDeliveries(), refreshEndpoints()]);
  };

  const createEndpoint = async (event: Event) => {
    const fields = fieldsOf(event);
    try {
      const events = eventsField(fields.events);
      const endpoint = await api.call<WebhookEndpointView>('POST', '/webhook_endpoints', {
        account_id: account(),
        url: fields.url,
        ...(events ? { events } : {}),
      });
      result(`Created endpoint ${endpoint.id} for ${endpoint.account_id}; its signing secret is ${endpoint.secret}.`);
      await refreshEndpoints();
    } catch (error) {
      result(describe(error));
    }
  };

  const trigger = async (event: Event) => {
    const fields = fieldsOf(event);
    try {
      const sent = await api.call<WebhookEventView>('POST', '/events', { account_id: account(), type: fields.type });
      result(`Triggered ${sent.type} (${sent.id}) for ${sent.account_id}.`);
      await refreshDeliveries();
    } catch (error) {
      result(describe(error));
    }
  };

  return {
    refresh,
    createEndpoint: (event) => void createEndpoint(event),
    trigger: (event) => void trigger(event),
    chosen: () => void refreshEndpoints().catch((error: unknown) => result(describe(error))),
  };
}
