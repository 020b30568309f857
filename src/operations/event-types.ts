/**
 * The webhook event types the sandbox sends (contract §4.3), named once: handlers emit them, the
 * webhook catalog (src/webhooks/event-catalog.ts) describes each one's payload, the admin API
 * accepts them in endpoint filters and `POST /__admin/events`, and /openapi.json lists them.
 */
export const EVENT_TYPES = [
  'job.completed',
  'job.failed',
  'job.cancelled',
  'form_submission.created',
  'customer.created',
  'api_key.created',
  'inbox.updated',
  'discount.deleted',
  'experience_link.deleted',
  'event_session.created',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
