/** Email: update inbox (spec §4.7) and list inbox messages (spec §4.8; filters `label` and `direction`, contract §2). */
import { listPage, type ListQuery } from '../../operations/pagination.js';
import { listEnvelopeSchema, openObjectSchema, paginatedQuery, prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import { required } from '../lookup.js';
import { inboxMessagesKey, MESSAGES_BY_INBOX } from './indexes.js';
import { mergeMetadata } from './metadata.js';
import { inboxSchema, inboxView, messageSchema, messageView } from './schemas.js';

export const updateInbox = defineOperation<
  { display_name?: string; metadata?: Record<string, unknown> },
  Record<string, never>,
  { id: string }
>({
  operationId: 'updateInbox',
  method: 'PATCH',
  path: '/email/inboxes/{id}',
  tag: 'Email',
  specSection: '4.7',
  summary: 'Update inbox',
  description:
    'Updates the display name and/or merges `metadata` into the existing metadata: each key sent replaces that key, a key sent as `null` is removed, ' +
    'keys not sent are kept.',
  params: { type: 'object', required: ['id'], properties: { id: prefixedIdSchema('inbox', 'The inbox.') } },
  body: {
    type: 'object',
    additionalProperties: false,
    properties: {
      display_name: { type: 'string', description: 'Any string, as sent.' },
      metadata: openObjectSchema({ description: 'Merged into the existing metadata; a key with value null is removed.' }),
    },
  },
  success: { status: 200, description: 'The updated inbox.', schema: inboxSchema },
  errors: [400, 401, 403, 404, 422, 429],
  handler({ params, body, store, events }) {
    required(store.collection('inboxes').get(params.id), 'inbox', params.id, 'id');
    // The account's own copy is replaced (the record read above may be a shared, frozen one), after
    // the record budget admits the result: a refused update changes nothing (docs/api.md "Record budget").
    const inboxes = store.write('inboxes');
    const current = inboxes.get(params.id)!;
    const next = {
      ...current,
      display_name: body.display_name ?? current.display_name,
      metadata: mergeMetadata(current.metadata, body.metadata ?? {}),
    };
    const inbox = inboxes.replace(params.id, next, body.metadata === undefined ? 'display_name' : 'metadata')!;
    const view = inboxView(inbox);
    events.emit('inbox.updated', view);
    return { body: view };
  },
});

export const listInboxMessages = defineOperation<
  undefined,
  ListQuery & { label?: string; direction?: 'inbound' | 'outbound' },
  { inbox_id: string }
>({
  operationId: 'listInboxMessages',
  method: 'GET',
  path: '/email/inboxes/{inbox_id}/messages',
  tag: 'Email',
  specSection: '4.8',
  summary: 'List inbox messages',
  description: 'Lists the messages of one inbox, newest first, optionally only those with a label and/or of one direction.',
  params: { type: 'object', required: ['inbox_id'], properties: { inbox_id: prefixedIdSchema('inbox', 'The inbox.') } },
  query: paginatedQuery({
    label: { type: 'string', minLength: 1, description: 'Only messages carrying this label (`received`, `sent`, `unread`, `starred`…).' },
    direction: { enum: ['inbound', 'outbound'], description: 'Only messages of this direction.' },
  }),
  success: { status: 200, description: 'A page of messages.', schema: listEnvelopeSchema(messageSchema) },
  errors: [400, 401, 403, 404, 429],
  handler({ params, query, store, path }) {
    const inbox = required(store.collection('inboxes').get(params.inbox_id), 'inbox', params.inbox_id, 'inbox_id');
    const { label, direction } = query;
    return {
      body: listPage(store.collection('messages'), query, {
        url: path,
        scope: (message) => message.inbox_id === inbox.id,
        index: { by: MESSAGES_BY_INBOX, key: inboxMessagesKey(inbox.id, label, direction) },
        view: messageView,
      }),
    };
  },
});

export const emailOperations = [updateInbox, listInboxMessages];
