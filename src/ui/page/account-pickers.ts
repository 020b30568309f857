/**
 * The account selects of every region (Requests filter, Scenario scope, Webhooks): one list of the
 * sandbox's accounts, each option its id with the account's name beside it, the choice kept across
 * refreshes. A select with `data-placeholder` starts with an empty choice ("All accounts").
 */
import { accountLabel } from './accounts-view.js';
import type { AccountView } from './api-types.js';
import { showIfChanged } from './dom.js';
import { h } from './vnode.js';

export function fillAccountPickers(accounts: AccountView[]): void {
  const listed = accounts.map((account) => [account.id, account.name ?? '']);
  for (const select of document.querySelectorAll<HTMLSelectElement>('select.account-select')) {
    const chosen = select.value;
    const placeholder = select.dataset.placeholder;
    showIfChanged(select, listed, () => [
      placeholder === undefined ? null : h('option', { value: '' }, placeholder),
      ...accounts.map((account) => h('option', { value: account.id, selected: account.id === chosen }, accountLabel(account))),
    ]);
  }
}
