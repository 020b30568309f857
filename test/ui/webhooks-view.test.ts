/** Contract §4.3, §4.4: the Webhooks region renders `GET /__admin/webhook_deliveries` (issue 18's shape). */
import { describe, expect, it } from 'vitest';
import type { ListPage, WebhookDeliveryView } from '../../src/ui/page/api-types.js';
import { findAll, textOf } from '../../src/ui/page/vnode.js';
import { webhooksView } from '../../src/ui/page/webhooks-view.js';

/** Two deliveries as issue 18's route answers them: one that failed once then succeeded, one still pending. */
const FIXTURE: ListPage<WebhookDeliveryView> = {
  object: 'list',
  data: [
    {
      id: 'wd_000000000002',
      object: 'webhook_delivery',
      endpoint_id: 'we_000000000001',
      event: {
        id: 'evt_000000000002',
        type: 'form_submission.created',
        created_at: '2026-01-15T12:00:05Z',
        account_id: 'acct_free_default',
        data: { object: { id: 'fsub_1', email: 'ada@example.com' } },
      },
      status: 'pending',
      attempts: [{ at: '2026-01-15T12:00:05Z', status_code: null, error: 'connection refused', duration_ms: 3 }],
      next_attempt_at: '2026-01-15T12:00:10Z',
    },
    {
      id: 'wd_000000000001',
      object: 'webhook_delivery',
      endpoint_id: 'we_000000000001',
      event: {
        id: 'evt_000000000001',
        type: 'job.completed',
        created_at: '2026-01-15T12:00:00Z',
        account_id: 'acct_free_default',
        data: { object: { id: 'job_1', status: 'completed' } },
      },
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

describe('the Webhooks region (contract §4.4)', () => {
  it('contract §4.4: shows each delivery, newest first, with its event, status, endpoint and attempts', () => {
    const view = webhooksView({ kind: 'list', data: FIXTURE.data });
    const items = findAll(view, (node) => node.tag === 'li');
    expect(items.map((item) => item.attrs['data-delivery-id'])).toEqual(['wd_000000000002', 'wd_000000000001']);
    const [pending, succeeded] = items.map((item) => textOf(findAll(item, (node) => node.tag === 'summary')[0]));
    expect(pending).toBe('pending form_submission.created acct_free_default → we_000000000001 · 1 attempt, next 2026-01-15T12:00:10Z');
    expect(succeeded).toBe('succeeded job.completed acct_free_default → we_000000000001 · 2 attempts');
  });

  it('contract §4.4: each attempt is a table row: when, status code (— when none), error, duration', () => {
    const view = webhooksView({ kind: 'list', data: FIXTURE.data });
    const rows = findAll(view, (node) => node.tag === 'tbody').map((body) => body.children.map(textOf));
    expect(rows).toEqual([
      ['1 2026-01-15T12:00:05Z — connection refused 3 ms'],
      ['1 2026-01-15T12:00:00Z 500 12 ms', '2 2026-01-15T12:00:05Z 200 9 ms'],
    ]);
  });

  it('contract §4.4: the event opens as JSON, its data included', () => {
    const text = textOf(webhooksView({ kind: 'list', data: FIXTURE.data }));
    expect(text).toContain('"ada@example.com"');
    expect(text).toContain('"evt_000000000001"');
  });

  it('contract §4.4: a plain state for no deliveries, and for a sandbox without the webhooks API (404)', () => {
    expect(textOf(webhooksView({ kind: 'list', data: [] }))).toBe('No webhook deliveries');
    expect(textOf(webhooksView({ kind: 'unavailable' }))).toMatch(/^Webhooks unavailable/);
  });
});
