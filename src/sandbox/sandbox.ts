/**
 * The sandbox: what is fixed for its life (options, fixture, scenario files, operations) and the
 * current `World` (src/sandbox/world.ts), the one generation of mutable state. `reset()` replaces
 * the world whole; requests read the world they captured on arrival (`ctx.state.world`), the admin
 * API, the CLI and tests the current one (`sandbox.world`: nothing forwards its parts, which change
 * under a holder when a reset comes). The resources' seeders come in from createApp, like the operations.
 */
import type { RealTimeSource } from '../clock/virtual-clock.js';
import { resolveJobSettings } from '../jobs/settings.js';
import type { OperationDef } from '../operations/types.js';
import type { ResolvedOptions } from '../config/options.js';
import { loadScenarioCatalog, type ScenarioCatalog } from '../scenarios/catalog.js';
import type { AccountSeeder } from '../fixture/account-template.js';
import { loadFixture } from '../fixture/fixture-file.js';
import { WORLD_MODULES } from './modules.js';
import type { WorldModule } from './world-module.js';
import { World, type WorldBlueprint } from './world.js';

/**
 * The shipped scenarios (no `scenariosDir`) per operation table: files of the package, which do not
 * change while it runs, so they are read once per process instead of once per createApp (~0.2 ms).
 * A user directory is read every time, so edits between apps are seen.
 */
const shippedCatalogs = new WeakMap<readonly OperationDef[], ScenarioCatalog>();

function scenarioCatalogFor(userDir: string | undefined, operations: readonly OperationDef[]): ScenarioCatalog {
  const load = () =>
    loadScenarioCatalog(
      userDir,
      operations.map((op) => op.operationId),
    );
  if (userDir !== undefined) return load();
  let catalog = shippedCatalogs.get(operations);
  if (!catalog) shippedCatalogs.set(operations, (catalog = load()));
  return catalog;
}

export class Sandbox {
  /** The current generation; replaced whole by `reset()`. */
  world: World;
  private readonly blueprint: WorldBlueprint;

  constructor(
    readonly options: ResolvedOptions,
    realTime: RealTimeSource = Date.now,
    operations: readonly OperationDef[] = [],
    seeders: readonly AccountSeeder[] = [],
    modules: readonly WorldModule<World>[] = WORLD_MODULES,
  ) {
    const fixture = loadFixture(options.fixtures);
    this.blueprint = {
      options,
      fixture,
      jobSettings: resolveJobSettings(fixture.jobs),
      scenarioCatalog: scenarioCatalogFor(options.scenariosDir, operations),
      operations,
      seeders,
      realTime,
      bootInstant: options.clock.start ?? realTime(),
      modules,
    };
    this.world = new World(this.blueprint);
  }

  /** Back to the boot state: accounts, keys, records, counters, journal and clock. */
  reset(): void {
    this.world.close();
    this.world = new World(this.blueprint);
  }

  get fixture() {
    return this.blueprint.fixture;
  }
}
