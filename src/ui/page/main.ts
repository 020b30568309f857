/**
 * The dashboard at /__admin/ui (contract §4.4, README "Dashboard"): draws the layout once, then keeps
 * each region live by polling the admin API (every second for the clock, the journal and the
 * scenarios; every two for accounts and webhooks). A poll that brings nothing new leaves the DOM as
 * it is, so focus and open sections survive.
 */
import { accountItem, type AccountActions } from './accounts-view.js';
import { AdminApi, AdminCallFailed } from './admin-api.js';
import type { AccountView, ClockView, JournalEntryView, ListPage, ScenarioLists, WebhookDeliveryView } from './api-types.js';
import { show, showIfChanged, toNode } from './dom.js';
import { JournalFeed, journalEntry, matchesStatus, type StatusClass } from './journal-view.js';
import { layout } from './layout.js';
import { activeList, availableList, scenarioOptions } from './scenarios-view.js';
import { h } from './vnode.js';
import { webhooksView, type WebhookState } from './webhooks-view.js';

const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

function notify(message: string): void {
  byId('notice').textContent = message;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Asks for the admin token in the header's form; resolves with what is entered. */
function askToken(refused: boolean): Promise<string> {
  const form = byId<HTMLFormElement>('token-form');
  form.hidden = false;
  notify(refused ? 'That admin token was refused: enter the one the sandbox was started with.' : 'Enter the admin token.');
  byId('token').focus();
  return new Promise((resolve) => {
    tokenEntered = (token) => {
      form.hidden = true;
      notify('');
      resolve(token);
    };
  });
}
let tokenEntered: ((token: string) => void) | undefined;

const api = new AdminApi(askToken);

/**
 * Runs `task` now and then `ms` after each run ends (never two at once). A failure is shown (the
 * sandbox stopped, a token refused) and cleared by the next run that succeeds.
 */
function every(ms: number, task: () => Promise<void>): void {
  let failure: string | undefined;
  const loop = async () => {
    try {
      await task();
      if (failure !== undefined && byId('notice').textContent === failure) notify('');
      failure = undefined;
    } catch (error) {
      failure = describe(error);
      notify(failure);
    }
    setTimeout(() => void loop(), ms);
  };
  void loop();
}

/** A form's fields by name, trimmed; empty ones left out. */
function fieldsOf(event: Event): Record<string, string> {
  event.preventDefault();
  const form = (event.currentTarget ?? event.target) as HTMLFormElement;
  const fields: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string' && value.trim() !== '') fields[name] = value.trim();
  });
  return fields;
}

// Clock ------------------------------------------------------------------------------------------

function showClock(clock: ClockView): void {
  byId('clock-now').textContent = clock.now;
  byId('clock-mode').textContent = clock.mode;
}

const refreshClock = async () => showClock(await api.call<ClockView>('GET', '/clock'));

async function setClock(path: string, body: unknown): Promise<void> {
  try {
    showClock(await api.call<ClockView>('POST', path, body));
    // Everything due by the new time has happened: the other regions show it at once.
    await Promise.all([refreshJournal(), refreshAccounts()]);
  } catch (error) {
    notify(describe(error));
  }
}

// Requests ---------------------------------------------------------------------------------------

const feed = new JournalFeed();
const operationIds = new Set<string>();
let requestFilter: { account_id?: string; operation_id?: string; status: StatusClass | '' } = { status: '' };

function journalQuery(extra: Record<string, string>): string {
  const query = new URLSearchParams(extra);
  if (requestFilter.account_id) query.set('account_id', requestFilter.account_id);
  if (requestFilter.operation_id) query.set('operation_id', requestFilter.operation_id);
  return `/requests?${query.toString()}`;
}

function applyStatusFilter(): void {
  const list = byId('requests-list');
  let shown = 0;
  for (const [index, item] of [...list.children].entries()) {
    const entry = feed.entries[index];
    const visible = entry !== undefined && matchesStatus(entry, requestFilter.status);
    (item as HTMLElement).hidden = !visible;
    if (visible) shown += 1;
  }
  byId('requests-count').textContent = `${shown} ${shown === 1 ? 'request' : 'requests'} shown (the newest ${feed.capacity} kept here)`;
}

function addEntries(fresh: JournalEntryView[]): void {
  if (fresh.length === 0) return;
  const list = byId('requests-list');
  const nodes = fresh.map((entry) => toNode(journalEntry(entry))!);
  list.prepend(...nodes);
  while (list.children.length > feed.entries.length) list.lastElementChild!.remove();
  const known = operationIds.size;
  for (const entry of fresh) if (entry.operation_id !== null) operationIds.add(entry.operation_id);
  if (operationIds.size !== known) show(byId('operation-ids'), ...[...operationIds].sort().map((id) => h('option', { value: id })));
  applyStatusFilter();
}

/** Bumped whenever the shown entries start over: a poll that began before must not add to the new list. */
let journalGeneration = 0;

function restartJournal(): void {
  journalGeneration += 1;
  feed.clear();
  show(byId('requests-list'));
  applyStatusFilter();
}

/** Reads the entries newer than the newest shown (the journal's newest page at first). */
async function pollJournal(): Promise<void> {
  const limit = String(feed.capacity);
  const generation = journalGeneration;
  try {
    // Bounded: at most capacity entries are kept, so a few pages catch up after any burst.
    for (let pages = 0; pages < 10; pages++) {
      const cursor = feed.cursor;
      const page = await api.call<ListPage<JournalEntryView>>('GET', journalQuery(cursor ? { ending_before: cursor, limit } : { limit }));
      if (generation !== journalGeneration) return;
      const fresh = feed.addNewer(page.data);
      if (fresh === undefined) {
        // Another journal than the one shown (emptied, reset): read it from its newest page.
        restartJournal();
        return await pollJournal();
      }
      addEntries(fresh);
      if (!cursor || page.has_more !== true) return;
    }
  } catch (error) {
    // The cursor is gone (the journal was emptied or reset): start over.
    if (error instanceof AdminCallFailed && error.status === 400 && generation === journalGeneration) restartJournal();
    else throw error;
  }
}

let journalPoll: Promise<void> | undefined;

/** One poll at a time: two at once would add the same answer twice, and the second would see another journal. */
function refreshJournal(): Promise<void> {
  journalPoll ??= pollJournal().finally(() => (journalPoll = undefined));
  return journalPoll;
}

function filterRequests(event: Event): void {
  const fields = fieldsOf(event);
  const next = { account_id: fields.account_id, operation_id: fields.operation_id, status: (fields.status ?? '') as StatusClass | '' };
  const refetch = next.account_id !== requestFilter.account_id || next.operation_id !== requestFilter.operation_id;
  requestFilter = next;
  if (!refetch) return applyStatusFilter();
  restartJournal();
  // After the poll in flight (if any, it read the old filter and is dropped), read the new list at once.
  void Promise.resolve(journalPoll)
    .then(refreshJournal)
    .catch((error: unknown) => notify(describe(error)));
}

// Accounts ---------------------------------------------------------------------------------------

let accounts: AccountView[] = [];
const openAccounts = new Set<string>();
const accountStates = new Map<string, unknown>();

async function loadState(id: string): Promise<void> {
  accountStates.set(id, (await api.call<{ state: unknown }>('GET', `/accounts/${encodeURIComponent(id)}`)).state);
  drawAccounts();
}

async function accountAction(task: () => Promise<unknown>, done: string): Promise<void> {
  try {
    await task();
    notify(done);
    await refreshAccounts();
  } catch (error) {
    notify(describe(error));
  }
}

const accountActions: AccountActions = {
  toggle: (id, open) => {
    // Drawing an open section fires `toggle` too: act only on a change.
    if (open === openAccounts.has(id)) return;
    if (open) {
      openAccounts.add(id);
      void loadState(id).catch((error: unknown) => notify(describe(error)));
    } else {
      openAccounts.delete(id);
    }
  },
  reload: (id) => void loadState(id).catch((error: unknown) => notify(describe(error))),
  reset: (id) =>
    void accountAction(async () => {
      await api.call('POST', `/accounts/${encodeURIComponent(id)}/reset`);
      // Its journal entries are gone (contract §4.1): start the list over rather than poll from one of them.
      restartJournal();
      if (openAccounts.has(id)) await loadState(id);
    }, `Account ${id} reset.`),
  remove: (id) =>
    void accountAction(async () => {
      await api.call('DELETE', `/accounts/${encodeURIComponent(id)}`);
      restartJournal();
      openAccounts.delete(id);
      accountStates.delete(id);
    }, `Account ${id} deleted.`),
};

function drawAccounts(): void {
  const states = accounts.map((account) => (openAccounts.has(account.id) ? accountStates.get(account.id) : undefined));
  showIfChanged(byId('accounts-list'), [accounts, states], () =>
    accounts.map((account, index) => accountItem(account, states[index], openAccounts.has(account.id), accountActions)),
  );
  // Both account selects (Requests filter, Scenario scope) list the accounts, keeping the choice.
  for (const select of document.querySelectorAll<HTMLSelectElement>('select.account-select')) {
    const chosen = select.value;
    const first = select.options[0]!.textContent ?? '';
    showIfChanged(
      select,
      accounts.map((account) => account.id),
      () => [
        h('option', { value: '' }, first),
        ...accounts.map((account) => h('option', { value: account.id, selected: account.id === chosen }, account.id)),
      ],
    );
  }
}

async function refreshAccounts(): Promise<void> {
  accounts = (await api.call<ListPage<AccountView>>('GET', '/accounts?limit=1000')).data;
  drawAccounts();
}

// Scenarios --------------------------------------------------------------------------------------

async function deactivate(id: string): Promise<void> {
  try {
    await api.call('DELETE', `/scenarios/${encodeURIComponent(id)}`);
    byId('scenario-result').textContent = `Deactivated ${id}.`;
    await refreshScenarios();
  } catch (error) {
    byId('scenario-result').textContent = describe(error);
  }
}

async function refreshScenarios(): Promise<void> {
  const lists = await api.call<ScenarioLists>('GET', '/scenarios');
  showIfChanged(byId('scenarios-available'), lists.available, () => [availableList(lists.available)]);
  showIfChanged(
    byId('scenario-name'),
    lists.available.map((scenario) => scenario.name),
    () => scenarioOptions(lists.available),
  );
  showIfChanged(byId('scenarios-active'), lists.active, () => [activeList(lists.active, (id) => void deactivate(id))]);
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

async function activate(event: Event): Promise<void> {
  const result = byId('scenario-result');
  try {
    const active = await api.call<{ id: string; name: string }>('POST', '/scenarios', activation(fieldsOf(event)));
    result.textContent = `Activated ${active.name} (${active.id}).`;
    await refreshScenarios();
  } catch (error) {
    result.textContent = error instanceof SyntaxError ? `Params are not JSON: ${error.message}` : describe(error);
  }
}

// Webhooks ---------------------------------------------------------------------------------------

async function refreshWebhooks(): Promise<void> {
  const state: WebhookState = {
    kind: 'list',
    data: (await api.call<ListPage<WebhookDeliveryView>>('GET', '/webhook_deliveries?limit=50')).data,
  };
  const list = byId('webhooks-list');
  // A delivery that changed (an attempt made, a retry due) redraws the list: the ones opened stay open.
  const opened = new Set(deliveryDetails(list).flatMap(([id, details]) => (details.open ? [id] : [])));
  showIfChanged(list, state, () => [webhooksView(state)]);
  for (const [id, details] of deliveryDetails(list)) if (opened.has(id)) details.open = true;
}

/** Each listed delivery's id and its `<details>`. */
function deliveryDetails(list: HTMLElement): Array<[string, HTMLDetailsElement]> {
  return [...list.querySelectorAll<HTMLElement>('li[data-delivery-id]')].flatMap((item) => {
    const details = item.querySelector<HTMLDetailsElement>(':scope > details');
    return details ? [[item.dataset.deliveryId!, details] as [string, HTMLDetailsElement]] : [];
  });
}

// Start ------------------------------------------------------------------------------------------

show(
  byId('app'),
  ...layout({
    freeze: () => void setClock('/clock', { mode: 'frozen' }),
    run: () => void setClock('/clock', { mode: 'running' }),
    advance: (event) => void setClock('/clock/advance', { seconds: Number(fieldsOf(event).seconds) }),
    activate: (event) => void activate(event),
    filterRequests,
    useToken: (event) => {
      const token = fieldsOf(event).token;
      if (token !== undefined) tokenEntered?.(token);
    },
  }),
);
every(1000, refreshClock);
every(1000, refreshJournal);
every(1000, refreshScenarios);
every(2000, refreshAccounts);
every(2000, refreshWebhooks);
