/**
 * The Scenarios region (contract §3.5, §4.2, §4.4): the available and active scenarios, polled;
 * Activate with a scope, times, probability and params (a hint under Params says what the chosen
 * scenario takes); Deactivate.
 */
import { api } from './admin-session.js';
import type { AvailableScenarioView, ScenarioLists } from './api-types.js';
import { byId, showIfChanged } from './dom.js';
import { fieldsOf } from './forms.js';
import { describe } from './notice.js';
import { paramsExample, paramsHint } from './params-hint.js';
import { activeList, availableList, scenarioOptions } from './scenarios-view.js';

export interface ScenariosController {
  refresh: () => Promise<void>;
  activate: (event: Event) => void;
  /** The Scenario select changed: the params hint follows it. */
  chosen: () => void;
}

/** The activation body from the form; the numbers and params are parsed here, checked by the sandbox. */
function activation(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { name: fields.name };
  for (const name of ['account_id', 'api_key_id', 'operation_id'] as const) if (fields[name]) body[name] = fields[name];
  if (fields.times) body.times = Number(fields.times);
  if (fields.probability) body.probability = Number(fields.probability);
  if (fields.params) body.params = JSON.parse(fields.params) as unknown;
  return body;
}

export function scenariosController(): ScenariosController {
  let available: AvailableScenarioView[] = [];
  const result = (text: string) => (byId('scenario-result').textContent = text);

  const showHint = () => {
    const name = byId<HTMLSelectElement>('scenario-name').value;
    const scenario = available.find((candidate) => candidate.name === name);
    showIfChanged(byId('scenario-params-hint'), scenario ?? null, () => paramsHint(scenario));
    byId<HTMLTextAreaElement>('scenario-params').placeholder = scenario ? paramsExample(scenario) : '';
  };

  const refresh = async () => {
    const lists = await api.call<ScenarioLists>('GET', '/scenarios');
    available = lists.available;
    showIfChanged(byId('scenarios-available'), lists.available, () => [availableList(lists.available)]);
    showIfChanged(
      byId('scenario-name'),
      lists.available.map((scenario) => scenario.name),
      () => scenarioOptions(lists.available),
    );
    showHint();
    showIfChanged(byId('scenarios-active'), lists.active, () => [activeList(lists.active, (id) => void deactivate(id))]);
  };

  const deactivate = async (id: string) => {
    try {
      await api.call('DELETE', `/scenarios/${encodeURIComponent(id)}`);
      result(`Deactivated ${id}.`);
      await refresh();
    } catch (error) {
      result(describe(error));
    }
  };

  const activate = async (event: Event) => {
    try {
      const active = await api.call<{ id: string; name: string }>('POST', '/scenarios', activation(fieldsOf(event)));
      result(`Activated ${active.name} (${active.id}).`);
      await refresh();
    } catch (error) {
      result(error instanceof SyntaxError ? `Params are not JSON: ${error.message}` : describe(error));
    }
  };

  return { refresh, activate: (event) => void activate(event), chosen: showHint };
}
