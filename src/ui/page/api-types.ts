/**
 * The shapes the page reads from the admin API, by the names the views use: the admin API's own
 * interface (src/admin/api-types.ts), imported as types only. The browser bundle erases them, and
 * the layer check refuses any other import of the server (scripts/layers.mjs). Where a view reads a
 * few members of an answer, its type picks those: a view takes what it reads, and a member renamed
 * on the server fails the page's type check.
 */
import type {
  ActiveScenarioView as ActiveScenario,
  AdminAccount,
  AdminRoutes,
  AvailableScenario,
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
export type AccountView = Pick<AdminAccount, 'id' | 'plan' | 'clock'> & Partial<Pick<AdminAccount, 'name'>>;
export type JournalEntryView = JournalEntry;
/** A body over the journal's body limit: its full UTF-8 length and its first bytes, as text. */
export type TruncatedBodyView = TruncatedBody;
export type AvailableScenarioView = Pick<AvailableScenario, 'name' | 'description'> & Partial<Pick<AvailableScenario, 'params'>>;
export type ActiveScenarioView = Pick<
  ActiveScenario,
  'id' | 'name' | 'account_id' | 'api_key_id' | 'operation_id' | 'remaining' | 'params'
> &
  Partial<Pick<ActiveScenario, 'probability'>>;
export type ScenarioLists = Answer<'GET /scenarios'>;
/** Contract §4.3: `GET /__admin/webhook_deliveries`. */
export type WebhookDeliveryView = Delivery;
export type WebhookAttemptView = DeliveryAttempt;
