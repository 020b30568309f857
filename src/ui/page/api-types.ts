/**
 * The shapes the page reads from the admin API, by the names the views use: the admin API's own
 * interface (src/admin/api-types.ts), imported as types only. The browser bundle erases them, and
 * the layer check refuses any other import of the server (scripts/layers.mjs).
 */
import type {
  AdminRoutes,
  DeliveryAttempt,
  JournalEntry,
  ListPage,
  TruncatedBody,
  WebhookDeliveryView as Delivery,
} from '../../admin/api-types.js';

export type { ListPage };

type Answer<K extends keyof AdminRoutes> = AdminRoutes[K]['answer'];

/** The sandbox clock, or an account's (with `shared`). */
export type ClockView = Answer<'GET /clock'> & { shared?: boolean };
export type AccountView = Answer<'GET /accounts'>['data'][number];
export type JournalEntryView = JournalEntry;
/** A body over the journal's body limit: its full UTF-8 length and its first bytes, as text. */
export type TruncatedBodyView = TruncatedBody;
export type ScenarioLists = Answer<'GET /scenarios'>;
export type AvailableScenarioView = ScenarioLists['available'][number];
export type ActiveScenarioView = ScenarioLists['active'][number];
/** Contract §4.3: `GET /__admin/webhook_deliveries`. */
export type WebhookDeliveryView = Delivery;
export type WebhookAttemptView = DeliveryAttempt;
