/**
 * The index behind `GET /v1/email/inboxes/{id}/messages` and its `label` and `direction` filters:
 * a message is filed under its inbox with every combination of (one of its labels or any) and (its
 * direction or any), so each query (no filter, label, direction, both) is one bucket, and a page
 * never walks another inbox's messages or ones the filters reject. 2 + 2 × labels keys a message.
 */
import { compositeKey, defineIndex } from '../../store/secondary-index.js';
import type { MessageRecord } from '../../store/records.js';

/** The bucket of an inbox's messages with `label` (any when undefined) and `direction` (any when undefined). */
export function inboxMessagesKey(inboxId: string, label?: string, direction?: MessageRecord['direction']): string {
  return compositeKey(inboxId, label ?? null, direction ?? null);
}

export const MESSAGES_BY_INBOX = defineIndex<MessageRecord>('messages by inbox, label and direction', (message) => {
  const keys = [inboxMessagesKey(message.inbox_id), inboxMessagesKey(message.inbox_id, undefined, message.direction)];
  for (const label of message.labels) {
    keys.push(inboxMessagesKey(message.inbox_id, label), inboxMessagesKey(message.inbox_id, label, message.direction));
  }
  return keys;
});
