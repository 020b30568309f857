/**
 * Every /v1 operation, in one list, every account seeder, in order, and every webhook event.
 * Routing, validation, the OpenAPI document and the contract tests read OPERATIONS. A resource
 * module adds its operations, its seeder and its events here, and the job kinds it runs.
 */
import { EVENT_TYPES, type EventDef, type EventType } from '../operations/event-types.js';
import type { OperationDef } from '../operations/types.js';
import type { AccountSeeder } from '../fixture/account-template.js';
import { adOperations } from './ads/operations.js';
import { seedAdDestinations } from './ads/seed.js';
import { apiKeyOperations } from './api-keys/operations.js';
import { apiKeyCreated } from './api-keys/webhook-events.js';
import { seedCustomers } from './customers/seed.js';
import { customerCreated } from './customers/webhook-events.js';
import { discountOperations } from './discounts/operations.js';
import { seedDiscounts } from './discounts/seed.js';
import { discountDeleted } from './discounts/webhook-events.js';
import { emailOperations } from './email/operations.js';
import { seedInboxes } from './email/seed.js';
import { inboxUpdated } from './email/webhook-events.js';
import { eventSessionOperations } from './event-sessions/operations.js';
import { seedEventSessions } from './event-sessions/seed.js';
import { eventSessionCreated } from './event-sessions/webhook-events.js';
import { experienceOperations } from './experiences/operations.js';
import { seedExperiences } from './experiences/seed.js';
import { formSubmissionOperations } from './form-submissions/operations.js';
import { formSubmissionCreated } from './form-submissions/webhook-events.js';
import { seedForms } from './forms/seed.js';
import { jobOperations } from './jobs/operations.js';
import { jobCancelled, jobCompleted, jobFailed } from './jobs/webhook-events.js';
import { priceVariantOperations } from './price-variants/operations.js';
import { seedPriceVariants } from './price-variants/seed.js';
import { experienceLinkDeleted } from './price-variants/webhook-events.js';
import { statusOperations } from './status/operations.js';
import { webOperations } from './web/operations.js';

export const OPERATIONS: readonly OperationDef[] = [
  ...apiKeyOperations,
  ...statusOperations,
  ...webOperations,
  ...jobOperations,
  ...formSubmissionOperations,
  ...adOperations,
  ...emailOperations,
  ...experienceOperations,
  ...priceVariantOperations,
  ...discountOperations,
  ...eventSessionOperations,
];

/**
 * The resources' seeders, which the sandbox runs on every new account (src/fixture/account-template.ts).
 * Order matters: later seeders use earlier records (grants need customers and experiences; forms
 * deliver download experiences; mail threads are written by customers about experiences).
 */
export const ACCOUNT_SEEDERS: readonly AccountSeeder[] = [
  seedCustomers,
  seedExperiences,
  seedPriceVariants,
  seedDiscounts,
  seedEventSessions,
  seedForms,
  seedInboxes,
  seedAdDestinations,
];

/** Each event type's declaration, by type: the compiler checks every type of EVENT_TYPES is declared, once. */
const EVENTS_BY_TYPE: { readonly [T in EventType]: EventDef<T> } = {
  'job.completed': jobCompleted,
  'job.failed': jobFailed,
  'job.cancelled': jobCancelled,
  'form_submission.created': formSubmissionCreated,
  'customer.created': customerCreated,
  'api_key.created': apiKeyCreated,
  'inbox.updated': inboxUpdated,
  'discount.deleted': discountDeleted,
  'experience_link.deleted': experienceLinkDeleted,
  'event_session.created': eventSessionCreated,
};

/** Every webhook event type's declaration, in the order of EVENT_TYPES (that of /openapi.json's `webhooks`). */
export const WEBHOOK_EVENTS: readonly EventDef[] = EVENT_TYPES.map((type) => EVENTS_BY_TYPE[type]);

export function webhookEvent(type: EventType): EventDef {
  return EVENTS_BY_TYPE[type];
}
