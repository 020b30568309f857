/** The Accounts region (contract §4.1, §4.4): each account's plan and clock, its state as JSON, reset and delete. */
import type { AccountView } from './api-types.js';
import { jsonView } from './json-view.js';
import { h, type Handler, type VNode } from './vnode.js';

export function clockText(clock: AccountView['clock']): string {
  return `${clock.now} (${clock.mode}, ${clock.shared ? 'sandbox clock' : 'own clock'})`;
}

export interface AccountActions {
  /** The account's section was opened or closed (its state is read when opened). */
  toggle: (id: string, open: boolean) => void;
  reset: (id: string) => void;
  remove: (id: string) => void;
  reload: (id: string) => void;
}

/**
 * One account. `state` is the `GET /__admin/accounts/{id}` answer once read; `open` keeps the
 * section open across refreshes.
 */
export function accountItem(account: AccountView, state: unknown, open: boolean, actions: AccountActions): VNode {
  const onToggle: Handler = (event) => actions.toggle(account.id, (event.currentTarget as { open?: boolean } | null)?.open === true);
  const named = account.name ? ` ${account.name}` : '';
  return h(
    'li',
    { class: 'account', 'data-account-id': account.id },
    h(
      'details',
      { open, ontoggle: onToggle },
      h(
        'summary',
        {},
        h('span', { class: 'path' }, account.id),
        h('span', { class: 'muted' }, `${named} · ${account.plan} · ${clockText(account.clock)}`),
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', 'aria-label': `Reload state of ${account.id}`, onclick: () => actions.reload(account.id) },
          'Reload state',
        ),
        h('button', { type: 'button', 'aria-label': `Reset ${account.id}`, onclick: () => actions.reset(account.id) }, 'Reset'),
        h(
          'button',
          { type: 'button', class: 'danger', 'aria-label': `Delete ${account.id}`, onclick: () => actions.remove(account.id) },
          'Delete',
        ),
      ),
      state === undefined ? h('p', { class: 'muted' }, 'Loading state…') : jsonView(state, 'state', 1),
    ),
  );
}
