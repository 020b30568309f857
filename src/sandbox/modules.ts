/**
 * The world modules every world is made with, in order (src/sandbox/world-module.ts): the order
 * their `create` runs and their hooks are called. Adding a module: its folder, then one entry here.
 */
import { findingsModule } from '../findings/world-module.js';
import { coverageModule } from '../coverage/world-module.js';
import { idempotencyModule, journalModule, rateLimitModule } from '../protocol/world-modules.js';
import { scenariosModule } from '../scenarios/world-module.js';
import { webhooksModule } from '../webhooks/world-module.js';
import { ownClocksModule } from './own-clocks.js';
import type { WorldModule } from './world-module.js';
import type { World } from './world.js';

export const WORLD_MODULES: readonly WorldModule<World>[] = [
  idempotencyModule,
  journalModule,
  scenariosModule,
  rateLimitModule,
  webhooksModule,
  ownClocksModule,
  findingsModule,
  coverageModule,
];
