/**
 * Every /v1 operation, in one list, and every account seeder, in order. Routing, validation, the
 * OpenAPI document and the contract tests read OPERATIONS. A resource module adds its operations
 * and its seeder here, and the job kinds it runs.
 */
import { registerJobKind } from '../jobs/kinds.js';
import type { OperationDef } from '../operations/types.js';
import { registerSeeder } from '../store/account-template.js';
import { apiKeyOperations } from './api-keys/operations.js';
import { seedCustomers } from './customers/seed.js';
import { jobOperations } from './jobs/operations.js';
import { statusOperations } from './status/operations.js';
import { crawlJobKind, webOperations } from './web/operations.js';

export const OPERATIONS: readonly OperationDef[] = [...apiKeyOperations, ...statusOperations, ...webOperations, ...jobOperations];

registerSeeder(seedCustomers);
registerJobKind(crawlJobKind);
