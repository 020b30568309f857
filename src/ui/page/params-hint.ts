/**
 * What a scenario takes, from its declaration (`GET /__admin/scenarios` answers each available
 * scenario's params as JSON Schemas with a description): shown under the Params field when the
 * scenario is chosen, with an example body built from the defaults.
 */
import type { AvailableScenarioView } from './api-types.js';
import type { ScenarioParamView } from './api-types-controls.js';
import { h, type VNode } from './vnode.js';

function paramsOf(scenario: AvailableScenarioView): Array<[string, ScenarioParamView]> {
  return Object.entries((scenario.params ?? {}) as Record<string, ScenarioParamView>);
}

/** The value's kind and bounds, short: `integer or null, 0–86400, default null`. */
export function paramSummary(param: ScenarioParamView): string {
  const parts: string[] = [];
  if (param.enum !== undefined) parts.push(`one of ${param.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  else if (param.type !== undefined) parts.push([param.type].flat().join(' or ') + (param.format ? ` (${param.format})` : ''));
  if (param.minimum !== undefined || param.maximum !== undefined) parts.push(`${param.minimum ?? '…'}–${param.maximum ?? '…'}`);
  if (param.maxLength !== undefined) parts.push(`at most ${param.maxLength} characters`);
  if (param.pattern !== undefined) parts.push(`matching ${param.pattern}`);
  if (param.default !== undefined) parts.push(`default ${JSON.stringify(param.default)}`);
  return parts.join(', ');
}

/** A params body with every default: what the activation uses when Params is left empty. */
export function paramsExample(scenario: AvailableScenarioView): string {
  const example: Record<string, unknown> = {};
  for (const [name, param] of paramsOf(scenario)) if (param.default !== undefined) example[name] = param.default;
  return JSON.stringify(example);
}

/** The hint's content: one line per param (name, kind, description), or that it takes none. */
export function paramsHint(scenario: AvailableScenarioView | undefined): VNode[] {
  if (scenario === undefined) return [];
  const params = paramsOf(scenario);
  if (params.length === 0) return [h('span', {}, `${scenario.name} takes no params.`)];
  return [
    h('span', {}, `${scenario.name} takes:`),
    h(
      'ul',
      { class: 'params-hint' },
      params.map(([name, param]) =>
        h('li', {}, h('code', {}, name), ` — ${[paramSummary(param), param.description].filter(Boolean).join('. ')}`),
      ),
    ),
  ];
}
