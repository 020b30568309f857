/**
 * The layers of src/, bottom to top: the one list that the dependency check (.dependency-cruiser.mjs,
 * run by `npm test`) and the README's "Project layout" diagram both read (test/architecture/ checks
 * the README against it).
 *
 * The rule: a module imports only from its own unit or from a unit of a lower layer, type-only
 * imports included. Units of one layer are peers and import neither each other nor anything above.
 * A unit is a folder of src/ or, at the bottom and the top, a few files directly under src/. A unit
 * may sit inside another's folder (ui/page/ in ui/): it is then its own unit, not part of the outer one.
 */

/**
 * `typesFrom`: modules of higher layers that the layer's units may import types from, type-only
 * (`import type`, erased when compiled): the dashboard page reads the admin API's interface so that
 * it keeps no copy of it, and its browser bundle still holds nothing of the server.
 * @typedef {{ name: string, why: string, units: string[], typesFrom?: string[] }} Layer
 */

/** @type {Layer[]} */
export const LAYERS = [
  {
    name: 'page',
    why: "the dashboard page (browser code): of the server, only the admin API's types, type-only",
    units: ['ui/page/'],
    typesFrom: ['admin/api-types.ts'],
  },
  { name: 'page assets', why: 'the page as built (script, style) and its HTML document', units: ['ui/'] },
  { name: 'foundation', why: 'errors, virtual clock, seeded ids', units: ['errors/', 'clock/', 'random.ts', 'package-dirs.ts'] },
  { name: 'store', why: 'records, collections, the account-scoped store', units: ['store/'] },
  { name: 'protocol', why: 'deprecation, rate limits, idempotency, journal, Prefer: no Koa', units: ['protocol/'] },
  { name: 'reports', why: 'coverage counters and the report file: plain data, no Koa', units: ['coverage/', 'report/'] },
  { name: 'config', why: 'options and CLI settings', units: ['config/'] },
  { name: 'jobs', why: 'job timelines, outcome rules, credit settling', units: ['jobs/'] },
  { name: 'declarations', why: 'fixture loading; the operation declaration kit', units: ['fixture/', 'operations/'] },
  { name: 'webhooks', why: 'endpoints, events, signed deliveries on the account clocks', units: ['webhooks/'] },
  {
    name: 'features',
    why: 'the scenario engine; the resources and their events; findings over requests and deliveries',
    units: ['scenarios/', 'resources/', 'findings/'],
  },
  { name: 'sandbox', why: 'boots the world, reset replaces it; tenants (own clocks, reset, delete)', units: ['sandbox/'] },
  { name: 'snapshots', why: 'one account exported and loaded again (contract §5.3)', units: ['snapshot/'] },
  { name: 'http', why: 'middlewares, /v1 router, response writer', units: ['http/'] },
  { name: 'openapi', why: 'the OpenAPI document of /v1', units: ['openapi/'] },
  { name: 'admin', why: '/__admin as declarations, its OpenAPI document and its client', units: ['admin/'] },
  {
    name: 'app',
    why: 'createApp: the middleware order; the one-off work left for after listen',
    units: ['app.ts', 'graceful-close.ts', 'warm-up.ts'],
  },
  { name: 'server', why: 'startMockServer; useTenant for vitest files', units: ['server.ts', 'vitest-tenant.ts'] },
  { name: 'entry points', why: 'the CLI and the package exports', units: ['cli.ts', 'index.ts', 'vitest.ts'] },
];

/** Modules below this layer must not import Koa (or its router, body parser, compose). */
export const FIRST_KOA_LAYER = 'http';

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The path pattern (as dependency-cruiser matches it, relative to the project root) of one unit.
 * @param {string} unit
 */
export function unitPattern(unit) {
  return unit.endsWith('/') ? `^src/${escape(unit)}` : `^src/${escape(unit)}$`;
}

/** @param {string[]} units */
const anyOf = (units) => units.map(unitPattern).join('|');

/**
 * The units nested in `unit`'s folder (ui/page/ in ui/), which are not part of it.
 * @param {string} unit
 * @param {string[]} allUnits
 */
const nestedIn = (unit, allUnits) => allUnits.filter((other) => other !== unit && unit.endsWith('/') && other.startsWith(unit));

/**
 * The `from`/`to` matcher of some units: their paths, less the units nested in them that are not among them.
 * @param {string[]} units
 * @param {string[]} allUnits
 * @param {string[]} [alsoAllowed] modules matched by `units` that are allowed anyway
 */
function unitsMatcher(units, allUnits, alsoAllowed = []) {
  const nested = units.flatMap((unit) => nestedIn(unit, allUnits)).filter((unit) => !units.includes(unit));
  const not = [...nested, ...alsoAllowed];
  return not.length === 0 ? { path: anyOf(units) } : { path: anyOf(units), pathNot: anyOf(not) };
}

/**
 * The forbidden rules of dependency-cruiser, generated from LAYERS.
 * @param {Layer[]} [layers]
 */
export function layerRules(layers = LAYERS) {
  /** @type {object[]} */
  const rules = [];
  const allUnits = layers.flatMap((layer) => layer.units);
  layers.forEach((layer, index) => {
    const above = layers.slice(index + 1).flatMap((upper) => upper.units);
    for (const unit of layer.units) {
      const peers = layer.units.filter((other) => other !== unit);
      const refused = [...peers, ...above];
      if (refused.length === 0) continue;
      const ruleName = `layer-${layer.name.replace(/\s+/g, '-')}:${unit}`;
      const from = unitsMatcher([unit], allUnits);
      const typesFrom = layer.typesFrom ?? [];
      rules.push({
        name: ruleName,
        severity: 'error',
        comment: `src/${unit} is in the ${layer.name} layer: it may import only its own unit and lower layers (scripts/layers.mjs)`,
        from,
        to: unitsMatcher(refused, allUnits, typesFrom),
      });
      if (typesFrom.length > 0) {
        rules.push({
          name: `${ruleName}types-only`,
          severity: 'error',
          comment: `src/${unit} may import ${typesFrom.join(', ')} with \`import type\` only: nothing of it may reach the browser bundle (scripts/layers.mjs)`,
          from,
          to: { path: anyOf(typesFrom), dependencyTypesNot: ['type-only'] },
        });
      }
    }
  });
  const koaIndex = layers.findIndex((layer) => layer.name === FIRST_KOA_LAYER);
  rules.push({
    name: 'no-koa-below-http',
    severity: 'error',
    comment: `only the ${FIRST_KOA_LAYER} layer and above may import Koa: the layers below are protocol and domain, testable without HTTP (scripts/layers.mjs)`,
    from: { path: anyOf(layers.slice(0, koaIndex).flatMap((layer) => layer.units)) },
    to: { path: '(^|/)node_modules/(@types/)?(koa|koa-[^/]+|@koa/[^/]+)/' },
  });
  rules.push({
    name: 'in-a-layer',
    severity: 'error',
    comment: 'every module of src/ belongs to a unit of scripts/layers.mjs, so the rule above covers it',
    from: { path: '^src/', pathNot: anyOf(allUnits) },
    to: {},
  });
  rules.push({
    name: 'no-cycle',
    severity: 'error',
    comment:
      'modules of src/ form no import cycle, within a unit either and type-only imports included: two modules ' +
      'that type each other are one concept split in two, or share a type that belongs in a module below both',
    from: { path: '^src/' },
    to: { circular: true },
  });
  return rules;
}

/** The README's diagram of the layers, top first (test/architecture/ keeps the README equal to it). */
export function layerDiagram(layers = LAYERS) {
  const width = Math.max(...layers.map((layer) => layer.units.join('  ').length));
  return [...layers]
    .reverse()
    .map((layer) => `${layer.units.join('  ').padEnd(width)}   ${layer.name}: ${layer.why}`)
    .join('\n   ↓\n');
}
