/**
 * The webhook event types the sandbox sends (contract §4.3), named once, and the kit each resource
 * declares its events with (`defineEvent`, the way it declares its operations with `defineOperation`).
 * Handlers emit these types, the resources' declarations (src/resources/*\/webhook-events.ts, listed
 * in src/resources/index.ts) describe each one's payload, the admin API accepts them in endpoint
 * filters and `POST /__admin/events`, and /openapi.json lists them. The names live here, below the
 * resources, because the handlers' event sink and the webhook hub (both below the resources) type by them.
 */
import type { IdGenerator } from '../random.js';
import type { AccountStore } from '../store/store.js';

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

/**
 * What a sample is made from (`POST /__admin/events`, like `stripe trigger`): the account, the
 * webhooks' own id stream (so a sample never shifts the ids of records), the seed and the account's now.
 */
export interface SampleContext {
  account: AccountStore;
  ids: IdGenerator;
  seed: string;
  now: number;
}

/** One event type, declared beside the resource it is about. */
export interface EventDef<T extends EventType = EventType> {
  type: T;
  description: string;
  /**
   * The schema of `data.object` (a JsonSchema, spelled out so this file imports nothing that imports
   * it): the resource's own response schema, so /openapi.json's `webhooks` and the API cannot drift.
   */
  object: Record<string, unknown>;
  /**
   * The `data.object` of a triggered event, built by the resource's own view function: the newest
   * record of the account that fits, or a sample made for it (never stored, so triggering changes no state).
   */
  sample(context: SampleContext): unknown;
}

/** Identity function that keeps the event's type literal (the resources' table checks each type is declared once). */
export function defineEvent<T extends EventType>(def: EventDef<T>): EventDef<T> {
  return def;
}

/** The newest record that fits: what a triggered event is about when the account has one. */
export function newestRecord<T>(records: readonly T[], fits: (record: T) => boolean = () => true): T | undefined {
  for (let i = records.length - 1; i >= 0; i--) if (fits(records[i]!)) return records[i];
  return undefined;
}
