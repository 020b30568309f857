/** JSON as nested, collapsible sections (`details`/`summary`): keyboard-operable without any script. */
import { h, type Child } from './vnode.js';

function scalar(value: unknown): Child {
  if (value === null) return h('span', { class: 'json-null' }, 'null');
  if (typeof value === 'string') return h('span', { class: 'json-string' }, JSON.stringify(value));
  // Numbers and booleans, as JSON writes them (objects never get here).
  return h('span', { class: 'json-scalar' }, JSON.stringify(value));
}

function size(value: object): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  const count = Object.keys(value).length;
  return `{${count} ${count === 1 ? 'key' : 'keys'}}`;
}

/**
 * `value` under `label`; objects and arrays collapse, those at depth < `openDepth` start open. Empty
 * ones are shown inline (`[]`, `{}`): nothing to expand.
 */
export function jsonView(value: unknown, label: string, openDepth = 1, depth = 0): Child {
  if (typeof value !== 'object' || value === null)
    return h('div', { class: 'json-row' }, h('span', { class: 'json-key' }, `${label}:`), scalar(value));
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  if (entries.length === 0)
    return h('div', { class: 'json-row' }, h('span', { class: 'json-key' }, `${label}:`), Array.isArray(value) ? '[]' : '{}');
  return h(
    'details',
    { class: 'json', open: depth < openDepth },
    h('summary', {}, h('span', { class: 'json-key' }, label), ' ', h('span', { class: 'json-size' }, size(value))),
    h(
      'div',
      { class: 'json-body' },
      entries.map(([key, item]) => jsonView(item, key, openDepth, depth + 1)),
    ),
  );
}
