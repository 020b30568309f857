/** The Scenarios region (contract §3.5, §4.2, §4.4): what is available, what is active and what remains of it. */
import type { ActiveScenarioView, AvailableScenarioView } from './api-types.js';
import { h, type VNode } from './vnode.js';

export function availableList(available: AvailableScenarioView[]): VNode {
  return h(
    'dl',
    { class: 'scenarios' },
    available
      .map((scenario) => {
        const params = Object.keys(scenario.params ?? {});
        return [
          h('dt', {}, scenario.name),
          h('dd', {}, scenario.description, params.length > 0 ? h('span', { class: 'muted' }, ` Params: ${params.join(', ')}.`) : null),
        ];
      })
      .flat(),
  );
}

/** The Scenario select's options: one per available scenario, with its description as a tooltip. */
export function scenarioOptions(available: AvailableScenarioView[]): VNode[] {
  return available.map((scenario) => h('option', { value: scenario.name, title: scenario.description }, scenario.name));
}

export function scopeText(active: ActiveScenarioView): string {
  const parts = [
    active.account_id === null ? null : `account ${active.account_id}`,
    active.api_key_id === null ? null : `key ${active.api_key_id}`,
    active.operation_id === null ? null : `operation ${active.operation_id}`,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'every request' : parts.join(', ');
}

export function remainingText(active: ActiveScenarioView): string {
  if (active.remaining === null) return 'until deactivated';
  return `${active.remaining} ${active.remaining === 1 ? 'time' : 'times'} left`;
}

export function activeList(active: ActiveScenarioView[], deactivate: (id: string) => void): VNode {
  if (active.length === 0) return h('p', { class: 'muted' }, 'No active scenario');
  return h(
    'ul',
    { class: 'list', 'aria-label': 'Active scenarios' },
    active.map((scenario) =>
      h(
        'li',
        { class: 'active-scenario', 'data-scenario-id': scenario.id, 'aria-label': `${scenario.name} ${scenario.id}` },
        h('span', { class: 'path' }, scenario.name),
        h(
          'span',
          { class: 'muted' },
          ` ${scenario.id} · ${scopeText(scenario)} · ${remainingText(scenario)}`,
          scenario.probability !== undefined && scenario.probability !== 1 ? ` · probability ${scenario.probability}` : '',
          Object.keys(scenario.params).length > 0 ? ` · params ${JSON.stringify(scenario.params)}` : '',
        ),
        ' ',
        h('button', { type: 'button', onclick: () => deactivate(scenario.id) }, 'Deactivate'),
      ),
    ),
  );
}
