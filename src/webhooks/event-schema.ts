/**
 * The payload a receiver gets (contract §4.3): the Event envelope around the `data.object` schema an
 * event type's declaration gives (the resource's own response schema, src/resources/*\/webhook-events.ts).
 * /openapi.json publishes it under `webhooks`; tests validate sent payloads against it.
 */
import type { EventDef, EventType } from '../operations/event-types.js';
import { timestampSchema } from '../operations/schemas.js';
import type { JsonSchema } from '../operations/types.js';

/** `JobCompletedEvent` for `job.completed`: the name the event's schema has in /openapi.json. */
export function eventSchemaTitle(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;
}

export function eventSchema(info: Pick<EventDef, 'type' | 'description' | 'object'>): JsonSchema {
  return {
    title: eventSchemaTitle(info.type),
    description: info.description,
    type: 'object',
    additionalProperties: false,
    required: ['id', 'object', 'type', 'created_at', 'account_id', 'data'],
    properties: {
      id: { type: 'string', pattern: '^evt_', description: 'Also the `webhook-id` header: the same on every attempt and every copy.' },
      object: { const: 'event' },
      type: { const: info.type },
      created_at: { ...timestampSchema, description: "Virtual time, on the account's clock (a job's event: when the job ended)." },
      account_id: { type: 'string', pattern: '^acct_' },
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['object'],
        properties: { object: info.object },
      },
    },
  };
}
