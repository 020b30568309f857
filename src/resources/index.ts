/**
 * Every /v1 operation, in one list, and every account seeder, in order. Routing, validation, the
 * OpenAPI document and the contract tests read OPERATIONS. A resource module adds its operations
 * and its seeder here.
 */
import type { OperationDef } from '../operations/types.js';
import { registerSeeder } from '../store/account-template.js';
import { apiKeyOperations } from './api-keys/operations.js';
import { seedCustomers } from './customers/seed.js';
import { statusOperations } from './status/operations.js';

export const OPERATIONS: readonly OperationDef[] = [...apiKeyOperations, ...statusOperations];

registerSeeder(seedCustomers);
