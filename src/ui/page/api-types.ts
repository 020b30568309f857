/**
 * The shapes the page reads from the admin API (README "Admin API", contract §3 and §4), declared
 * here rather than imported: the page is browser code and imports nothing of the server.
 */

export interface ClockView {
  now: string;
  mode: 'running' | 'frozen';
  shared?: boolean;
}

export interface AccountView {
  id: string;
  plan: string;
  name?: string;
  clock: { now: string; mode: 'running' | 'frozen'; shared: boolean };
}

export interface JournalEntryView {
  request_id: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number | null;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  idempotent_replayed: boolean;
  scenario_ids: string[];
  fault: string | null;
  timestamp: string;
  /** The request's headers, lower-case names, credentials redacted (contract §5.3). */
  headers: Record<string, string>;
  body: unknown;
  /** Only when the body was over the journal's body limit (`body` is then null). */
  body_truncated?: TruncatedBodyView;
  response: { status: number; headers: Record<string, string>; body: unknown; body_truncated?: TruncatedBodyView } | null;
}

/** A body over the journal's body limit: its full UTF-8 length and its first bytes, as text. */
export interface TruncatedBodyView {
  bytes: number;
  head: string;
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more?: boolean;
}

export interface AvailableScenarioView {
  name: string;
  description: string;
  params?: Record<string, unknown>;
}

export interface ActiveScenarioView {
  id: string;
  name: string;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  /** Matching requests (or jobs) left before it ends; null when it lasts until deactivated. */
  remaining: number | null;
  probability?: number;
  params: Record<string, unknown>;
}

export interface ScenarioLists {
  available: AvailableScenarioView[];
  active: ActiveScenarioView[];
}

/** Contract §4.3 (issue 18): `GET /__admin/webhook_deliveries`. */
export interface WebhookAttemptView {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

export interface WebhookDeliveryView {
  id: string;
  object: 'webhook_delivery';
  endpoint_id: string;
  event: { id: string; type: string; created_at: string; account_id: string; data: unknown };
  status: 'pending' | 'succeeded' | 'failed';
  attempts: WebhookAttemptView[];
  next_attempt_at: string | null;
}
