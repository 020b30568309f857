/**
 * The page's fixed structure: the five regions of contract §4.4, their headings, forms and the
 * containers the live data is shown in. The accessible names the contract fixes (buttons Freeze,
 * Run, Advance, Activate, Deactivate; inputs Seconds, Scenario, Account; regions Clock, Accounts,
 * Requests, Scenarios, Webhooks) are written here, once.
 */
import { STATUS_CLASSES } from './journal-view.js';
import { h, type Child, type Handler, type VNode } from './vnode.js';

export interface LayoutHandlers {
  freeze: Handler;
  run: Handler;
  advance: Handler;
  activate: Handler;
  filterRequests: Handler;
  useToken: Handler;
}

/** A region: a landmark named by its heading. */
function region(id: string, title: string, ...children: Child[]): VNode {
  return h('section', { id, 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, title), ...children);
}

function field(label: string, control: VNode): VNode {
  return h('label', { class: 'field' }, h('span', {}, label), control);
}

const NO_ACCOUNT = (text: string) => h('option', { value: '' }, text);

export function layout(on: LayoutHandlers): VNode[] {
  return [
    h(
      'header',
      {},
      h('h1', {}, 'creator-commerce-mock'),
      h('p', { id: 'notice', role: 'status', class: 'muted' }),
      h(
        'form',
        { id: 'token-form', hidden: true, onsubmit: on.useToken },
        h('p', {}, 'This sandbox needs its admin token. It is kept in this tab only (session storage).'),
        field('Admin token', h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true })),
        h('button', { type: 'submit' }, 'Use token'),
      ),
    ),
    h(
      'main',
      {},
      region(
        'clock',
        'Clock',
        h('p', {}, 'Sandbox clock: ', h('output', { id: 'clock-now' }, '…'), ' ', h('span', { id: 'clock-mode', class: 'badge' })),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', onclick: on.freeze }, 'Freeze'),
          h('button', { type: 'button', onclick: on.run }, 'Run'),
          h(
            'form',
            { class: 'row', onsubmit: on.advance },
            field(
              'Seconds',
              h('input', { id: 'seconds', name: 'seconds', type: 'number', min: 0, step: 'any', value: '60', required: true }),
            ),
            h('button', { type: 'submit' }, 'Advance'),
          ),
        ),
      ),
      region(
        'requests',
        'Requests',
        h(
          'form',
          { class: 'row filters', onchange: on.filterRequests, onsubmit: on.filterRequests },
          field(
            'Account',
            h('select', { id: 'requests-account', name: 'account_id', class: 'account-select' }, NO_ACCOUNT('All accounts')),
          ),
          field(
            'Status',
            h(
              'select',
              { id: 'requests-status', name: 'status' },
              h('option', { value: '' }, 'Any status'),
              STATUS_CLASSES.map((c) => h('option', { value: c }, c === 'none' ? 'no answer' : c)),
            ),
          ),
          field(
            'Operation',
            h('input', { id: 'requests-operation', name: 'operation_id', list: 'operation-ids', placeholder: 'any operation' }),
          ),
          h('datalist', { id: 'operation-ids' }),
        ),
        h('p', { id: 'requests-count', class: 'muted', 'aria-live': 'polite' }),
        h('ul', { id: 'requests-list', class: 'list', 'aria-label': 'Journal entries, newest first' }),
      ),
      region('accounts', 'Accounts', h('ul', { id: 'accounts-list', class: 'list', 'aria-label': 'Accounts' })),
      region(
        'scenarios',
        'Scenarios',
        h(
          'form',
          { class: 'grid-form', onsubmit: on.activate },
          field('Scenario', h('select', { id: 'scenario-name', name: 'name', required: true })),
          field('Account', h('select', { id: 'scenario-account', name: 'account_id', class: 'account-select' }, NO_ACCOUNT('Any account'))),
          field('API key', h('input', { name: 'api_key_id', placeholder: 'any key' })),
          field('Operation', h('input', { name: 'operation_id', list: 'operation-ids', placeholder: 'any operation' })),
          field('Times', h('input', { name: 'times', type: 'number', min: 1, step: 1, placeholder: 'unlimited' })),
          field('Probability', h('input', { name: 'probability', type: 'number', min: 0, max: 1, step: 'any', placeholder: '1' })),
          field('Params (JSON)', h('textarea', { name: 'params', rows: 2, placeholder: '{"retry_after": 30}' })),
          h('button', { type: 'submit' }, 'Activate'),
        ),
        h('p', { id: 'scenario-result', role: 'status' }),
        h('h3', {}, 'Active'),
        h('div', { id: 'scenarios-active' }),
        // Long (a dozen descriptions): closed until wanted, so the form and the active ones stay in view.
        h('details', { class: 'available' }, h('summary', {}, h('h3', {}, 'Available scenarios')), h('div', { id: 'scenarios-available' })),
      ),
      region('webhooks', 'Webhooks', h('div', { id: 'webhooks-list' }, h('p', { class: 'muted' }, 'Loading…'))),
    ),
  ];
}
