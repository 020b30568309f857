/** A `GET /__admin/webhook_deliveries` answer in the route's shape (contract §4.3), for the dashboard's Webhooks region. */
import type { ListPage, WebhookDeliveryView } from '../../src/ui/page/api-types.js';

/** Two deliveries as that route answers them: one that failed once then succeeded, one still pending. */
export const WEBHOOK_DELIVERIES: ListPage<WebhookDeliveryView> = {
  object: 'list',
  data: [
    {
      id: 'wd_000000000002',
      object: 'webhook_delivery',
      account_id: 'acct_free_default',
      endpoint_id: 'we_000000000001',
      event: {
        id: 'evt_000000000002',
        object: 'event',
        type: 'form_submission.created',
        created_at: '2026-01-15T12:00:05Z',
        account_id: 'acct_free_default',
        data: { object: { id: 'fsub_1', email: 'ada@example.com' } },
      },
      payload_bytes: 180,
      status: 'pending',
      attempts: [{ at: '2026-01-15T12:00:05Z', status_code: null, error: 'connection refused', duration_ms: 3 }],
      next_attempt_at: '2026-01-15T12:00:10Z',
    },
    {
      id: 'wd_000000000001',
      object: 'webhook_delivery',
      account_id: 'acct_free_default',
      endpoint_id: 'we_000000000001',
      event: {
        id: 'evt_000000000001',
        object: 'event',
        type: 'job.completed',
        created_at: '2026-01-15T12:00:00Z',
        account_id: 'acct_free_default',
        data: { object: { id: 'job_1', status: 'completed' } },
      },
      payload_bytes: 176,
      status: 'succeeded',
      attempts: [
        { at: '2026-01-15T12:00:00Z', status_code: 500, error: null, duration_ms: 12 },
        { at: '2026-01-15T12:00:05Z', status_code: 200, error: null, duration_ms: 9 },
      ],
      next_attempt_at: null,
    },
  ],
  has_more: false,
};
