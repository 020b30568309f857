/**
 * The webhook event types the Trigger event control offers (contract §4.3). The page is browser code
 * and imports no value of the server, so the list is written here; test/ui/event-types.test.ts fails
 * when it differs from the one the sandbox accepts (src/operations/event-types.ts).
 */
export const WEBHOOK_EVENT_TYPES = [
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
