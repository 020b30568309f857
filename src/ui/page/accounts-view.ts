/**
 * The Accounts region (contract §4.1, §4.4): each account's name, plan and clock, its state as JSON,
 * reset and delete, and the controls of its clock (its own, or the sandbox clock it follows).
 */
import type { AccountView } from './api-types.js';
import { coverageView, type CoverageShown } from './coverage-view.js';
import { jsonView } from './json-view.js';
import { timestamp } from './time-view.js';
import { h, type Handler, type VNode } from './vnode.js';

/** How an account picker names an account: the id (what is sent and what the journal shows) and the name beside it. */
export function accountLabel(account: Pick<AccountView, 'id' | 'name'>): string {
  return account.name ? `${account.id} — ${account.name}` : account.id;
}

export interface AccountActions {
  /** The account's section was opened or closed (its state is read when opened). */
  toggle: (id: string, open: boolean) => void;
  reset: (id: string) => void;
  remove: (id: string) => void;
  reload: (id: string) => void;
  /** `POST /__admin/accounts/{id}/clock` with this body (`{}` gives the account its own clock, as it is). */
  setClock: (id: string, body: { mode?: 'running' | 'frozen' }) => void;
  /** The submit of the account's Advance form (field `seconds`). */
  advanceClock: (id: string, event: Event) => void;
  /** The submit of the account's Set form (field `now`, an ISO 8601 instant). */
  setClockTime: (id: string, event: Event) => void;
  /** Saves the account's journal as HAR (contract §5.3) or its snapshot. */
  download: (id: string, what: 'har' | 'snapshot') => void;
}

/**
 * The clock controls of one account, named after it ("Advance clock of acct_…"), so that they differ
 * from the sandbox clock's Freeze, Run and Advance (contract §4.4) and from another account's.
 */
function clockControls(account: AccountView, actions: AccountActions): VNode {
  const { id, clock } = account;
  return h(
    'div',
    { class: 'account-clock', role: 'group', 'aria-label': `Clock of ${id}` },
    h(
      'p',
      { class: 'muted' },
      clock.shared
        ? 'Follows the sandbox clock. Any change here gives it its own clock, starting at the sandbox clock’s instant.'
        : 'Its own clock: the sandbox clock no longer moves it.',
    ),
    h(
      'div',
      { class: 'row' },
      clock.shared
        ? h('button', { type: 'button', 'aria-label': `Own clock for ${id}`, onclick: () => actions.setClock(id, {}) }, 'Own clock')
        : null,
      h(
        'button',
        { type: 'button', 'aria-label': `Freeze clock of ${id}`, onclick: () => actions.setClock(id, { mode: 'frozen' }) },
        'Freeze',
      ),
      h('button', { type: 'button', 'aria-label': `Run clock of ${id}`, onclick: () => actions.setClock(id, { mode: 'running' }) }, 'Run'),
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'form',
        { class: 'row', onsubmit: (event: Event) => actions.advanceClock(id, event) },
        h(
          'label',
          { class: 'field' },
          h('span', {}, 'Seconds'),
          h('input', {
            name: 'seconds',
            type: 'number',
            min: 0,
            step: 'any',
            value: '60',
            required: true,
            'aria-label': `Seconds to advance ${id}`,
          }),
        ),
        h('button', { type: 'submit', 'aria-label': `Advance clock of ${id}` }, 'Advance'),
      ),
      h(
        'form',
        { class: 'row', onsubmit: (event: Event) => actions.setClockTime(id, event) },
        h(
          'label',
          { class: 'field' },
          h('span', {}, 'Time (ISO 8601)'),
          h('input', { name: 'now', required: true, placeholder: clock.now, 'aria-label': `Time for ${id}`, autocomplete: 'off' }),
        ),
        h('button', { type: 'submit', 'aria-label': `Set clock of ${id}` }, 'Set'),
      ),
    ),
  );
}

/**
 * One account. `state` is the `GET /__admin/accounts/{id}` answer once read; `open` keeps the
 * section open across refreshes. The clock's instant is a `<time data-clock-of>` the controller
 * updates in place, so a running clock does not redraw the controls someone is typing into.
 */
export function accountItem(account: AccountView, state: unknown, open: boolean, actions: AccountActions, coverage?: CoverageShown): VNode {
  const onToggle: Handler = (event) => actions.toggle(account.id, (event.currentTarget as { open?: boolean } | null)?.open === true);
  const named = account.name ? ` ${account.name}` : '';
  const { clock } = account;
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
        h(
          'span',
          { class: 'muted' },
          `${named} · ${account.plan} · `,
          timestamp(clock.now, { 'data-clock-of': account.id }),
          ` (${clock.mode}, ${clock.shared ? 'sandbox clock' : 'own clock'})`,
        ),
      ),
      open ? clockControls(account, actions) : null,
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
      open
        ? h(
            'div',
            { class: 'row' },
            h(
              'button',
              { type: 'button', 'aria-label': `Download HAR of ${account.id}`, onclick: () => actions.download(account.id, 'har') },
              'Download HAR',
            ),
            h(
              'button',
              {
                type: 'button',
                'aria-label': `Download snapshot of ${account.id}`,
                onclick: () => actions.download(account.id, 'snapshot'),
              },
              'Download snapshot',
            ),
          )
        : null,
      open ? coverageView(account.id, coverage) : null,
      state === undefined ? h('p', { class: 'muted' }, 'Loading state…') : jsonView(state, 'state', 1),
    ),
  );
}
