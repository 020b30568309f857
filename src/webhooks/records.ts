/** The shapes of contract §4.3: an endpoint, an event, a delivery and its attempts, as the admin API shows them. */
import type { EventType } from '../operations/event-types.js';

/** `["*"]` (every type) or a list of types. */
export type EventFilter = readonly ('*' | EventType)[];

export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  account_id: string;
  url: string;
  events: EventFilter;
  secret: string;
  status: 'enabled';
  created_at: string;
}

export interface WebhookEvent {
  id: string;
  object: 'event';
  type: EventType;
  /** On the account's virtual clock (a job's event: the instant the job ended). */
  created_at: string;
  account_id: string;
  data: { object: unknown };
}

export interface DeliveryAttempt {
  /** Virtual time of the attempt, on the account's clock. */
  at: string;
  /** The receiver's status, or null when none came (connection error, timeout). */
  status_code: number | null;
  /** Why the attempt failed, or null when it succeeded. */
  error: string | null;
  /** Real milliseconds the attempt took. */
  duration_ms: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** An event without its `data`: what a delivery keeps beside the payload text it shares with its event's other deliveries. */
export type WebhookEventHead = Omit<WebhookEvent, 'data'>;

/**
 * What a listing shows in place of `data` when the payload is over the size a listing shows whole
 * (README "Testing your webhook receiver"): the payload's length and its first characters.
 */
export interface TruncatedEventData {
  truncated: true;
  payload_bytes: number;
  preview: string;
}

export interface WebhookDeliveryView {
  id: string;
  object: 'webhook_delivery';
  account_id: string;
  endpoint_id: string;
  /** Whole, or in a listing past a size, its `data` a TruncatedEventData. */
  event: WebhookEvent | (WebhookEventHead & { data: TruncatedEventData });
  /** UTF-8 bytes of the body sent on every attempt. */
  payload_bytes: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
}

export function acceptsType(filter: EventFilter, type: EventType): boolean {
  return filter.includes('*') || filter.includes(type);
}
