/**
 * Every /v1 operation, in one list, and every account seeder, in order. Routing, validation, the
 * OpenAPI document and the contract tests read OPERATIONS. A resource module adds its operations
 * and its seeder here, and the job kinds it runs.
 */
import type { OperationDef } from '../operations/types.js';
import type { AccountSeeder } from '../fixture/account-template.js';
import { adOperations } from './ads/operations.js';
import { seedAdDestinations } from './ads/seed.js';
import { apiKeyOperations } from './api-keys/operations.js';
import { seedCustomers } from './customers/seed.js';
import { discountOperations } from './discounts/operations.js';
import { seedDiscounts } from './discounts/seed.js';
import { emailOperations } from './email/operations.js';
import { seedInboxes } from './email/seed.js';
import { eventSessionOperations } from './event-sessions/operations.js';
import { seedEventSessions } from './event-sessions/seed.js';
import { experienceOperations } from './experiences/operations.js';
import { seedExperiences } from './experiences/seed.js';
import { formSubmissionOperations } from './form-submissions/operations.js';
import { seedForms } from './forms/seed.js';
import { jobOperations } from './jobs/operations.js';
import { priceVariantOperations } from './price-variants/operations.js';
import { seedPriceVariants } from './price-variants/seed.js';
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
