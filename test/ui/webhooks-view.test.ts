/** Contract §4.3, §4.4: the Webhooks region renders `GET /__admin/webhook_deliveries` as that route answers it. */
import { describe, expect, it } from 'vitest';
import { findAll, textOf } from '../../src/ui/page/vnode.js';
import { webhooksView } from '../../src/ui/page/webhooks-view.js';
import { WEBHOOK_DELIVERIES as FIXTURE } from '../support/webhook-deliveries.js';

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

  it('contract §4.4: a plain state for no deliveries', () => {
    expect(textOf(webhooksView({ kind: 'list', data: [] }))).toBe('No webhook deliveries');
  });
});
