/**
 * The scenario engine's part in a world's lifecycle (src/sandbox/world-module.ts, contract §4.1):
 * on account reset and delete, the activations scoped to the account or one of its keys end, and the
 * account's chance streams start over. Types only what it calls: this layer sits below the world.
 */
import type { ScenarioEngine } from './engine.js';

export const scenariosModule = {
  name: 'scenarios',
  create({ scenarios }: { readonly scenarios: Pick<ScenarioEngine, 'retireScoped' | 'restartChance'> }) {
    const forget = (accountId: string, keyIds: ReadonlySet<string>) => {
      scenarios.retireScoped(accountId, keyIds);
      scenarios.restartChance(accountId);
    };
    return { accountReset: forget, accountDeleted: forget };
  },
};
