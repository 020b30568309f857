/**
 * What the delivery log's admin routes answer (contract §4.3), in a bounded size whatever the `limit`:
 * - a listing shows an event whole up to LISTED_EVENT_BYTES of payload; past it, `data` is a marker
 *   with the payload's length and its first PREVIEW_CHARS characters;
 * - a page stops before PAGE_BYTES of estimated JSON and says `has_more`;
 * - one delivery (`GET /__admin/webhook_deliveries/{id}`) shows its event whole up to PAGE_BYTES.
 * The dashboard polls a listing of 50 every 2 s: at most 50 × 16 KiB of events per poll.
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import type { LoggedPayload } from './delivery-log.js';
import type { EventType } from '../operations/event-types.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookDeliveryView, WebhookEvent, WebhookEventHead } from './records.js';

export const LISTED_EVENT_BYTES = 16 * 1024;
export const PREVIEW_CHARS = 1024;
export const PAGE_BYTES = 8 * 1024 ** 2;
/** Beside the event: ids, status, next attempt and up to eight attempts. */
const VIEW_OVERHEAD = 2048;

/** What a view reads of a delivery (the hub's record). */
export interface ListedDelivery {
  readonly id: string;
  readonly accountId: string;
  readonly endpoint: { readonly id: string };
  readonly event: WebhookEventHead;
  readonly payload: LoggedPayload;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAt: number | undefined;
}

export interface ListedPage {
  data: WebhookDeliveryView[];
  hasMore: boolean;
}

/** The event of a delivery: parsed from the very bytes sent when within `wholeUpTo`, else the marker. */
function eventOf(delivery: ListedDelivery, wholeUpTo: number): WebhookDeliveryView['event'] {
  const { payload } = delivery;
  if (payload.bytes <= wholeUpTo) return JSON.parse(payload.body.toString('utf8')) as WebhookEvent;
  return { ...delivery.event, data: { truncated: true, payload_bytes: payload.bytes, preview: previewOf(payload.body) } };
}

/** The first PREVIEW_CHARS characters, never ending in half a surrogate pair (it would show as an escape). */
function previewOf(body: Buffer): string {
  // Decodes only the head: PREVIEW_CHARS units take at most 3 bytes each, and 3 more bytes leave room
  // for a character the cut would split (decoded as U+FFFD, past the preview's end).
  const text = body.toString('utf8', 0, Math.min(body.length, 3 * PREVIEW_CHARS + 3));
  const end = /[\uD800-\uDBFF]/.test(text.charAt(PREVIEW_CHARS - 1)) ? PREVIEW_CHARS - 1 : PREVIEW_CHARS;
  return text.slice(0, end);
}

/** Estimated bytes of a view: the event as shown (a preview's character takes at most 3 bytes, escaped or encoded) and the rest. */
function estimate(delivery: ListedDelivery, wholeUpTo: number): number {
  return (delivery.payload.bytes <= wholeUpTo ? delivery.payload.bytes : 3 * PREVIEW_CHARS) + VIEW_OVERHEAD;
}

export function deliveryView(delivery: ListedDelivery, wholeUpTo = PAGE_BYTES): WebhookDeliveryView {
  return {
    id: delivery.id,
    object: 'webhook_delivery',
    account_id: delivery.accountId,
    endpoint_id: delivery.endpoint.id,
    event: eventOf(delivery, wholeUpTo),
    payload_bytes: delivery.payload.bytes,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt })),
    next_attempt_at: delivery.status === 'pending' && delivery.nextAt !== undefined ? isoTimestamp(delivery.nextAt) : null,
  };
}

/** Up to `limit` of `source` (newest first) that `keep` accepts, within PAGE_BYTES; reads no further than it shows. */
export function listPage<T extends ListedDelivery>(source: Iterable<T>, keep: (delivery: T) => boolean, limit: number): ListedPage {
  const data: WebhookDeliveryView[] = [];
  let bytes = 0;
  for (const delivery of source) {
    if (!keep(delivery)) continue;
    const size = estimate(delivery, LISTED_EVENT_BYTES);
    if (data.length === limit || (data.length > 0 && bytes + size > PAGE_BYTES)) return { data, hasMore: true };
    bytes += size;
    data.push(deliveryView(delivery, LISTED_EVENT_BYTES));
  }
  return { data, hasMore: false };
}

/** What `GET /__admin/webhook_deliveries` filters by. */
export interface DeliveryFilter {
  account_id?: string;
  endpoint_id?: string;
  event_type?: EventType;
  status?: DeliveryStatus;
  limit: number;
}

/** Whether a delivery passes the filter (its account is chosen before: the log is read per account). */
export function deliveryFilter(filter: DeliveryFilter): (delivery: ListedDelivery) => boolean {
  return (delivery) =>
    (filter.endpoint_id === undefined || delivery.endpoint.id === filter.endpoint_id) &&
    (filter.event_type === undefined || delivery.event.type === filter.event_type) &&
    (filter.status === undefined || delivery.status === filter.status);
}
