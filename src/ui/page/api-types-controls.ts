/**
 * The admin answers the dashboard's controls read beyond src/ui/page/api-types.ts (kept apart while
 * that file is being replaced by imports from the admin table): a scenario's params declaration
 * (`GET /__admin/scenarios`, `available[].params`), a webhook endpoint and a triggered event
 * (contract §4.3).
 */

/** One param of a scenario, as its declaration states it (a JSON Schema of one value and its description). */
export interface ScenarioParamView {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export interface WebhookEndpointView {
  id: string;
  object: 'webhook_endpoint';
  account_id: string;
  url: string;
  events: readonly string[];
  secret: string;
  status: string;
  created_at: string;
}

export interface WebhookEventView {
  id: string;
  object: 'event';
  type: string;
  created_at: string;
  account_id: string;
}
