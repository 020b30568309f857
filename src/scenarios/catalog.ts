/**
 * The scenarios a sandbox knows: every `*.json` file of the shipped `scenarios/` directory, then of
 * the user's `scenariosDir`, each named by its base name. Loaded once, when the sandbox is created;
 * a bad file stops start-up with a ScenarioFileError naming the file and the JSON path inside it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors/config-error.js';
import { SCENARIOS_DIR } from '../package-dirs.js';
import { shownFixturePath } from '../fixture/fixture-file.js';
import { ScenarioDefinition, ScenarioFileError, type ParseOptions } from './definition.js';

/** A scenario's name is its file's base name: lowercase words joined by `-`, a token in a Prefer header. */
const SCENARIO_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export type ScenarioCatalog = ReadonlyMap<string, ScenarioDefinition>;

// Parsed files by path and content: many apps are made per test run, each file is parsed once.
const parsed = new Map<string, ScenarioDefinition>();

function loadFile(file: string, name: string, options: ParseOptions): ScenarioDefinition {
  const shown = shownFixturePath(file);
  const text = readFileSync(file, 'utf8');
  const cacheKey = `${file}\u0000${options.checkParamSchemas}\u0000${text}`;
  const cached = parsed.get(cacheKey);
  if (cached) return cached;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ScenarioFileError(shown, '', `not valid JSON (${(error as Error).message})`);
  }
  const definition = ScenarioDefinition.parse(name, shown, raw, options);
  parsed.set(cacheKey, definition);
  return definition;
}

function scenarioFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((entry) => entry.endsWith('.json'))
    .sort()
    .map((entry) => path.join(dir, entry));
}

/**
 * Loads the shipped scenarios and the user's directory. `operationIds` are the operations rules may
 * name in `match.operations`: a typo there would otherwise match nothing, silently.
 */
export function loadScenarioCatalog(userDir: string | undefined, operationIds: readonly string[]): ScenarioCatalog {
  const dirs = [SCENARIOS_DIR];
  if (userDir !== undefined) {
    if (!existsSync(userDir) || !statSync(userDir).isDirectory()) throw new ConfigError('scenarios-dir', `not a directory: ${userDir}`);
    dirs.push(userDir);
  }
  const catalog = new Map<string, ScenarioDefinition>();
  const known = new Set(operationIds);
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of scenarioFiles(dir)) {
      const name = path.basename(file, '.json');
      const shown = shownFixturePath(file);
      if (!SCENARIO_NAME.test(name)) {
        throw new ScenarioFileError(
          shown,
          '',
          `the file name is the scenario's name: lowercase letters and digits in words joined by '-', got '${name}'`,
        );
      }
      const existing = catalog.get(name);
      if (existing) throw new ScenarioFileError(shown, '', `a scenario named '${name}' is already defined by ${existing.file}`);
      // The shipped files' param schemas are checked by the test suite, not at every start-up.
      const definition = loadFile(file, name, { checkParamSchemas: dir !== SCENARIOS_DIR });
      for (const { operationId, pointer } of definition.namedOperations()) {
        if (!known.has(operationId))
          throw new ScenarioFileError(shown, pointer, `unknown operation '${operationId}' (known operations: ${operationIds.join(', ')})`);
      }
      catalog.set(name, definition);
    }
  }
  return catalog;
}
