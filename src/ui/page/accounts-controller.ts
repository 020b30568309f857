/**
 * The Accounts region (contract §4.1, §4.4): every account, polled; an opened one reads its state;
 * Reset, Delete and its clock controls call the admin API and show the result at once.
 */
import { api } from './admin-session.js';
import type { AccountView, ListPage } from './api-types.js';
import { accountItem, type AccountActions } from './accounts-view.js';
import type { CoverageView } from './api-types-report.js';
import type { CoverageShown } from './coverage-view.js';
import { byId, showIfChanged } from './dom.js';
import { fieldsOf } from './forms.js';
import { describe, notify, reportFailure } from './notice.js';

export interface AccountsController {
  refresh: () => Promise<void>;
}

export interface AccountsWiring {
  /** The accounts as last read: every account picker lists them. */
  listed: (accounts: AccountView[]) => void;
  /** An account's journal entries are gone (reset, deleted): the Requests list starts over. */
  journalChanged: () => void;
  /** An account's clock moved: what fell due (jobs, webhooks) shows in the other regions. */
  clockMoved: () => Promise<unknown>;
}

const accountPath = (id: string) => `/accounts/${encodeURIComponent(id)}`;

/** The account list's data without the clocks' instants: those are updated in place (`showClockInstants`). */
function drawnKey(accounts: AccountView[], states: unknown[], open: Set<string>): unknown {
  return [accounts.map((account) => ({ ...account, clock: { ...account.clock, now: undefined } })), states, [...open]];
}

/** A running clock changes every poll: only its `<time>` changes, so controls being typed into stay as they are. */
function showClockInstants(list: HTMLElement, accounts: AccountView[]): void {
  const instants = new Map(accounts.map((account) => [account.id, account.clock.now]));
  for (const time of list.querySelectorAll<HTMLTimeElement>('time[data-clock-of]')) {
    const now = instants.get(time.dataset.clockOf!);
    if (now === undefined || time.textContent === now) continue;
    time.textContent = now;
    time.dateTime = now;
  }
}

/**
 * Redraws `list` keeping what was typed into its fields and which one had the focus (fields are
 * named after their account, so the same field is found again): a poll that brings a changed account
 * (its credits, its state read) must not undo a half-typed clock change.
 */
function keepingTyped(list: HTMLElement, redraw: () => void): void {
  const typed = new Map([...list.querySelectorAll('input')].map((input) => [input.getAttribute('aria-label'), input.value]));
  const focused = list.contains(document.activeElement) ? document.activeElement?.getAttribute('aria-label') : null;
  redraw();
  for (const input of list.querySelectorAll('input')) {
    const value = typed.get(input.getAttribute('aria-label'));
    if (value !== undefined) input.value = value;
  }
  if (!focused || list.contains(document.activeElement)) return;
  for (const control of list.querySelectorAll<HTMLElement>('input, button'))
    if (control.getAttribute('aria-label') === focused) control.focus();
}

export function accountsController(wiring: AccountsWiring): AccountsController {
  let accounts: AccountView[] = [];
  const open = new Set<string>();
  const states = new Map<string, unknown>();
  const coverages = new Map<string, CoverageShown>();

  const draw = () => {
    const shownStates = accounts.map((account) => (open.has(account.id) ? states.get(account.id) : undefined));
    const shownCoverages = accounts.map((account) => (open.has(account.id) ? coverages.get(account.id) : undefined));
    const list = byId('accounts-list');
    keepingTyped(list, () =>
      showIfChanged(list, drawnKey(accounts, [shownStates, shownCoverages], open), () =>
        accounts.map((account, index) => accountItem(account, shownStates[index], open.has(account.id), actions, shownCoverages[index])),
      ),
    );
    showClockInstants(list, accounts);
    wiring.listed(accounts);
  };

  const refresh = async () => {
    accounts = (await api.call<ListPage<AccountView>>('GET', '/accounts?limit=1000')).data;
    draw();
  };

  /** Its state, and its coverage (contract §5.2) beside it: a coverage that cannot be read says why, in place. */
  const loadState = async (id: string) => {
    const coverage = api
      .call<CoverageView>('GET', `/coverage?account_id=${encodeURIComponent(id)}`)
      .catch((error: unknown): CoverageShown => ({ failed: describe(error) }));
    states.set(id, (await api.call<{ state: unknown }>('GET', accountPath(id))).state);
    coverages.set(id, await coverage);
    draw();
  };

  const act = async (task: () => Promise<unknown>, done: string) => {
    try {
      await task();
      notify(done);
      await refresh();
    } catch (error) {
      notify(describe(error));
    }
  };

  const moveClock = (id: string, path: string, body: unknown, done: string) =>
    void act(async () => {
      await api.call('POST', `${accountPath(id)}${path}`, body);
      await wiring.clockMoved();
    }, done);

  const actions: AccountActions = {
    toggle: (id, opened) => {
      // Drawing an open section fires `toggle` too: act only on a change.
      if (opened === open.has(id)) return;
      if (opened) {
        open.add(id);
        // Its clock controls at once; its state when read.
        draw();
        reportFailure(loadState(id));
      } else {
        open.delete(id);
        draw();
      }
    },
    reload: (id) => reportFailure(loadState(id)),
    reset: (id) =>
      void act(async () => {
        await api.call('POST', `${accountPath(id)}/reset`);
        // Its journal entries are gone (contract §4.1): start the list over rather than poll from one of them.
        wiring.journalChanged();
        if (open.has(id)) await loadState(id);
      }, `Account ${id} reset.`),
    remove: (id) =>
      void act(async () => {
        await api.call('DELETE', accountPath(id));
        wiring.journalChanged();
        open.delete(id);
        states.delete(id);
        coverages.delete(id);
      }, `Account ${id} deleted.`),
    download: (id, what) =>
      reportFailure(
        what === 'har'
          ? api.download(`/requests.har?account_id=${encodeURIComponent(id)}`, `${id}.har`)
          : api.download(`${accountPath(id)}/snapshot`, `${id}.snapshot.json`),
      ),
    setClock: (id, body) => moveClock(id, '/clock', body, body.mode ? `Clock of ${id}: ${body.mode}.` : `${id} has its own clock.`),
    advanceClock: (id, event) => {
      const seconds = Number(fieldsOf(event).seconds);
      moveClock(id, '/clock/advance', { seconds }, `Clock of ${id} advanced by ${seconds} s.`);
    },
    setClockTime: (id, event) => {
      const now = fieldsOf(event).now;
      moveClock(id, '/clock', { now }, `Clock of ${id} set to ${now}.`);
    },
  };

  return { refresh };
}
