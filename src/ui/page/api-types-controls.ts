/**
 * The admin answers the dashboard's controls read: a scenario's params declaration
 * (`GET /__admin/scenarios`, `available[].params`, a JSON Schema of one value), a webhook endpoint
 * and a triggered event (contract §4.3), the last two picked from the admin interface, type-only.
 */
import type { WebhookEndpoint, WebhookEvent } from '../../admin/api-types.js';

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

export type WebhookEndpointView = Pick<
  WebhookEndpoint,
  'id' | 'object' | 'account_id' | 'url' | 'events' | 'secret' | 'status' | 'created_at'
>;

export type WebhookEventView = Pick<WebhookEvent, 'id' | 'object' | 'type' | 'created_at' | 'account_id'>;
