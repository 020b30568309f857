/** Inbox (spec §2.5) and Message (spec §2.6), with the element shapes we chose (README fidelity table). */
import { openObjectSchema, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { viewFrom } from '../view.js';
import type { InboxRecord, MessageRecord } from '../../store/records.js';

export const inboxSchema: JsonSchema = {
  title: 'Inbox',
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'address', 'local_part', 'domain', 'display_name', 'status', 'metadata', 'created_at'],
  properties: {
    object: { const: 'inbox' },
    id: { type: 'string', pattern: '^inbox_' },
    address: { type: 'string', format: 'email' },
    local_part: { type: 'string' },
    domain: { type: 'string' },
    display_name: { type: 'string' },
    status: { const: 'active' },
    metadata: openObjectSchema({ description: 'Your own keys and values, as last merged by `PATCH`.' }),
    created_at: timestampSchema,
  },
};

const stringList: JsonSchema = { type: 'array', items: { type: 'string' } };

export const messageSchema: JsonSchema = {
  title: 'Message',
  type: 'object',
  additionalProperties: false,
  required: [
    'object',
    'id',
    'thread_id',
    'inbox_id',
    'direction',
    'status',
    'message_id',
    'in_reply_to',
    'references',
    'from',
    'to',
    'cc',
    'bcc',
    'reply_to',
    'subject',
    'preview',
    'labels',
    'suppressed',
    'delivery',
    'attachments',
    'text',
    'html',
    'timestamp',
    'created_at',
  ],
  properties: {
    object: { const: 'message' },
    id: { type: 'string', pattern: '^msg_' },
    thread_id: { type: 'string', pattern: '^thr_' },
    inbox_id: { type: 'string', pattern: '^inbox_' },
    direction: { enum: ['inbound', 'outbound'] },
    status: { enum: ['received', 'sent'] },
    message_id: { type: 'string', pattern: '^<[^<>@]+@[^<>@]+>$' },
    in_reply_to: { type: ['string', 'null'], description: 'The Message-ID replied to; null on the first message of a thread.' },
    references: { ...stringList, description: 'Every earlier Message-ID of the thread, oldest first.' },
    from: { type: 'string', description: 'A mailbox: `Name <address>` or a bare address.' },
    to: { ...stringList, description: 'Mailboxes, as `from`.' },
    cc: stringList,
    bcc: stringList,
    reply_to: { type: ['string', 'null'] },
    subject: { type: 'string' },
    preview: { type: 'string', maxLength: 100 },
    labels: stringList,
    suppressed: { ...stringList, description: 'Recipient addresses not sent to because they are suppressed.' },
    delivery: openObjectSchema({
      title: 'MessageDelivery',
      required: ['status'],
      properties: { status: { enum: ['received', 'delivered'] } },
      description: 'Inbound: status, received_at, spf, dkim, dmarc. Outbound: status, delivered_at, attempts, smtp_response.',
    }),
    attachments: {
      type: 'array',
      items: {
        title: 'MessageAttachment',
        type: 'object',
        additionalProperties: false,
        required: ['attachment_id', 'filename', 'content_type', 'size', 'inline'],
        properties: {
          attachment_id: { type: 'string', pattern: '^att_' },
          filename: { type: 'string' },
          content_type: { type: 'string' },
          size: { type: 'integer', minimum: 0 },
          inline: { type: 'boolean' },
        },
      },
    },
    text: { type: 'string' },
    html: { type: 'string' },
    timestamp: timestampSchema,
    created_at: timestampSchema,
  },
};

export const inboxView = viewFrom<InboxRecord>(inboxSchema);

export const messageView = viewFrom<MessageRecord>(messageSchema);
