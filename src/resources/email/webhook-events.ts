/** `inbox.updated` (contract §4.3). */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { inboxSchema, inboxView } from './schemas.js';

export const inboxUpdated = defineEvent({
  type: 'inbox.updated',
  description: 'An inbox was updated (`PATCH /v1/email/inboxes/{id}`).',
  object: inboxSchema,
  sample: ({ account, ids, now }) => {
    const inbox = newestRecord(account.collection('inboxes').values());
    if (inbox) return inboxView(inbox);
    return inboxView({
      object: 'inbox',
      id: ids.next('inbox'),
      address: 'sample@example.com',
      local_part: 'sample',
      domain: 'example.com',
      display_name: 'Sample',
      status: 'active',
      metadata: {},
      created_at: isoTimestamp(now),
    });
  },
});
