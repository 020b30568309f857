/**
 * The page's fixed structure: the five regions of contract §4.4 and Findings (§5.1), their headings, forms and the
 * containers the live data is shown in. The accessible names the contract fixes (buttons Freeze,
 * Run, Advance, Activate, Deactivate; inputs Seconds, Scenario, Account; regions Clock, Accounts,
 * Requests, Scenarios, Webhooks) are written here, once.
 */
import { WEBHOOK_EVENT_TYPES } from './event-types.js';
import { STATUS_CLASSES } from './journal-view.js';
import { h, type Child, type Handler, type VNode } from './vnode.js';

export interface LayoutHandlers {
  freeze: Handler;
  run: Handler;
  advance: Handler;
  activate: Handler;
  /** The Scenario select changed (its params hint follows). */
  scenarioChosen: Handler;
  filterRequests: Handler;
  /** Leaves a finding's requests for the whole journal again. */
  showAllRequests: Handler;
  useToken: Handler;
  createEndpoint: Handler;
  triggerEvent: Handler;
  /** The Webhooks region's Account select changed (its endpoints follow). */
  webhookAccountChosen: Handler;
}

/** A region: a landmark named by its heading. */
function region(id: string, title: string, ...children: Child[]): VNode {
  return h('section', { id, 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, title), ...children);
}

function field(label: string, control: VNode): VNode {
  return h('label', { class: 'field' }, h('span', {}, label), control);
}

/** An account select (src/ui/page/account-pickers.ts fills it); `placeholder` is its empty choice, if it has one. */
function accountSelect(id: string, name: string, placeholder?: string, onchange?: Handler): VNode {
  return h(
    'select',
    { id, name, class: 'account-select', 'data-placeholder': placeholder, onchange },
    placeholder === undefined ? null : h('option', { value: '' }, placeholder),
  );
}

function webhooksRegion(on: LayoutHandlers): VNode {
  return region(
    'webhooks',
    'Webhooks',
    h('div', { class: 'row' }, field('Account', accountSelect('webhooks-account', 'account_id', undefined, on.webhookAccountChosen))),
    h(
      'form',
      { class: 'row', onsubmit: on.createEndpoint },
      field(
        'Endpoint URL',
        h('input', { name: 'url', type: 'url', required: true, placeholder: 'http://127.0.0.1:9000/webhooks', autocomplete: 'off' }),
      ),
      field('Events', h('input', { name: 'events', placeholder: '* (every event)', autocomplete: 'off' })),
      h('button', { type: 'submit' }, 'Create endpoint'),
    ),
    h(
      'form',
      { class: 'row', onsubmit: on.triggerEvent },
      field(
        'Event type',
        h(
          'select',
          { name: 'type', required: true },
          WEBHOOK_EVENT_TYPES.map((type) => h('option', { value: type }, type)),
        ),
      ),
      h('button', { type: 'submit' }, 'Trigger event'),
    ),
    h('p', { id: 'webhooks-result', role: 'status' }),
    h('div', { id: 'webhooks-endpoints' }),
    h('h3', {}, 'Deliveries'),
    h('div', { id: 'webhooks-list' }, h('p', { class: 'muted' }, 'Loading…')),
  );
}

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
        h(
          'p',
          {},
          'Sandbox clock: ',
          h('output', { id: 'clock-now', class: 'instant' }, '…'),
          ' ',
          h('span', { id: 'clock-mode', class: 'badge' }),
        ),
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
      // Two columns from 1000 px (styles.css): the journal and scenarios on the left; the accounts and
      // webhooks on the right, so the Webhooks region is in view at 1280×800 without scrolling.
      h(
        'div',
        { class: 'column' },
        region(
          'requests',
          'Requests',
          h(
            'form',
            { class: 'row filters', onchange: on.filterRequests, onsubmit: on.filterRequests },
            field('Account', accountSelect('requests-account', 'account_id', 'All accounts')),
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
          h(
            'p',
            { id: 'requests-focus', class: 'row focus', hidden: true },
            h('span', { id: 'requests-focus-text' }),
            h('button', { type: 'button', onclick: on.showAllRequests }, 'Show all requests'),
          ),
          h('ul', { id: 'requests-list', class: 'list', 'aria-label': 'Journal entries, newest first' }),
        ),
        // Below the journal it links into; in the left column, so the Webhooks region stays on the first screen.
        region(
          'findings',
          'Findings',
          h('p', { class: 'muted' }, 'What the sandbox noticed about its clients (contract §5.1), newest first.'),
          h('div', { id: 'findings-list' }, h('p', { class: 'muted' }, 'Loading…')),
        ),
        region(
          'scenarios',
          'Scenarios',
          h(
            'form',
            { class: 'grid-form', onsubmit: on.activate },
            field('Scenario', h('select', { id: 'scenario-name', name: 'name', required: true, onchange: on.scenarioChosen })),
            field('Account', accountSelect('scenario-account', 'account_id', 'Any account')),
            field('API key', h('input', { name: 'api_key_id', placeholder: 'any key' })),
            field('Operation', h('input', { name: 'operation_id', list: 'operation-ids', placeholder: 'any operation' })),
            field('Times', h('input', { name: 'times', type: 'number', min: 1, step: 1, placeholder: 'unlimited' })),
            field('Probability', h('input', { name: 'probability', type: 'number', min: 0, max: 1, step: 'any', placeholder: '1' })),
            field(
              'Params (JSON)',
              h('textarea', { id: 'scenario-params', name: 'params', rows: 2, 'aria-describedby': 'scenario-params-hint' }),
            ),
            h('button', { type: 'submit' }, 'Activate'),
          ),
          h('div', { id: 'scenario-params-hint', class: 'muted hint', 'aria-live': 'polite' }),
          h('p', { id: 'scenario-result', role: 'status' }),
          h('h3', {}, 'Active'),
          h('div', { id: 'scenarios-active' }),
          // Long (a dozen descriptions): closed until wanted, so the form and the active ones stay in view.
          h(
            'details',
            { class: 'available' },
            h('summary', {}, h('h3', {}, 'Available scenarios')),
            h('div', { id: 'scenarios-available' }),
          ),
        ),
      ),
      h(
        'div',
        { class: 'column' },
        region('accounts', 'Accounts', h('ul', { id: 'accounts-list', class: 'list', 'aria-label': 'Accounts' })),
        webhooksRegion(on),
      ),
    ),
  ];
}
