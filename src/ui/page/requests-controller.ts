/**
 * The Requests region (contract §3.4, §4.4): the journal, newest first, polled with `ending_before`
 * so only new entries travel; filtered by account and operation (by the API) and status (here).
 */
import { AdminCallFailed } from './admin-api.js';
import { api } from './admin-session.js';
import type { JournalEntryView, ListPage } from './api-types.js';
import { byId, show, toNode } from './dom.js';
import { fieldsOf } from './forms.js';
import { JournalFeed, journalEntry, matchesStatus, type StatusClass } from './journal-view.js';
import { describe, notify } from './notice.js';
import { h } from './vnode.js';

export interface RequestsController {
  /** Reads the entries newer than the newest shown; one poll at a time. */
  refresh: () => Promise<void>;
  /** The journal shown is gone (an account reset or deleted): the list starts over. */
  restart: () => void;
  filter: (event: Event) => void;
  /** Shows only these requests (a finding's, contract §5.1), marked, until `unfocus`. */
  focus: (label: string, requestIds: string[]) => void;
  unfocus: () => void;
}

type RequestFilter = { account_id?: string; operation_id?: string; status: StatusClass | '' };

export function requestsController(): RequestsController {
  const feed = new JournalFeed();
  const operationIds = new Set<string>();
  let filter: RequestFilter = { status: '' };
  /** Bumped whenever the shown entries start over: a poll that began before must not add to the new list. */
  let generation = 0;
  let inFlight: Promise<void> | undefined;
  /** The requests of a finding being looked at: only they are shown while it is set. */
  let focused: { label: string; ids: Set<string> } | undefined;

  const query = (extra: Record<string, string>) => {
    const params = new URLSearchParams(extra);
    if (filter.account_id) params.set('account_id', filter.account_id);
    if (filter.operation_id) params.set('operation_id', filter.operation_id);
    return `/requests?${params.toString()}`;
  };

  const applyStatusFilter = () => {
    const list = byId('requests-list');
    let shown = 0;
    for (const [index, item] of [...list.children].entries()) {
      const entry = feed.entries[index];
      const inFocus = focused !== undefined && entry !== undefined && focused.ids.has(entry.request_id);
      const visible = entry !== undefined && matchesStatus(entry, filter.status) && (focused === undefined || inFocus);
      (item as HTMLElement).hidden = !visible;
      item.classList.toggle('focused', inFocus);
      if (visible) shown += 1;
    }
    byId('requests-count').textContent = `${shown} ${shown === 1 ? 'request' : 'requests'} shown (the newest ${feed.capacity} kept here)`;
    const bar = byId('requests-focus');
    bar.hidden = focused === undefined;
    if (focused !== undefined) {
      // A finding outlives the journal (contract §5.1): its older requests may be gone from it.
      byId('requests-focus-text').textContent =
        `Only the requests of ${focused.label}: ${shown} of ${focused.ids.size} still in the journal shown here.`;
    }
  };

  const addEntries = (fresh: JournalEntryView[]) => {
    if (fresh.length === 0) return;
    const list = byId('requests-list');
    list.prepend(...fresh.map((entry) => toNode(journalEntry(entry))!));
    while (list.children.length > feed.entries.length) list.lastElementChild!.remove();
    const known = operationIds.size;
    for (const entry of fresh) if (entry.operation_id !== null) operationIds.add(entry.operation_id);
    if (operationIds.size !== known) show(byId('operation-ids'), ...[...operationIds].sort().map((id) => h('option', { value: id })));
    applyStatusFilter();
  };

  const restart = () => {
    generation += 1;
    feed.clear();
    show(byId('requests-list'));
    applyStatusFilter();
  };

  /** Reads the entries newer than the newest shown (the journal's newest page at first). */
  const poll = async (): Promise<void> => {
    const limit = String(feed.capacity);
    const started = generation;
    try {
      // Bounded: at most capacity entries are kept, so a few pages catch up after any burst.
      for (let pages = 0; pages < 10; pages++) {
        const cursor = feed.cursor;
        const page = await api.call<ListPage<JournalEntryView>>('GET', query(cursor ? { ending_before: cursor, limit } : { limit }));
        if (started !== generation) return;
        const fresh = feed.addNewer(page.data);
        if (fresh === undefined) {
          // Another journal than the one shown (emptied, reset): read it from its newest page.
          restart();
          return await poll();
        }
        addEntries(fresh);
        if (!cursor || page.has_more !== true) return;
      }
    } catch (error) {
      // The cursor is gone (the journal was emptied or reset): start over.
      if (error instanceof AdminCallFailed && error.status === 400 && started === generation) restart();
      else throw error;
    }
  };

  /** One poll at a time: two at once would add the same answer twice, and the second would see another journal. */
  const refresh = () => {
    inFlight ??= poll().finally(() => (inFlight = undefined));
    return inFlight;
  };

  /** Sets the API-side filters back to every account and operation, and reads the list again. */
  const widen = () => {
    const form = byId<HTMLSelectElement>('requests-account').form!;
    byId<HTMLSelectElement>('requests-account').value = '';
    byId<HTMLInputElement>('requests-operation').value = '';
    form.dispatchEvent(new Event('change'));
  };

  return {
    refresh,
    restart,
    focus: (label, requestIds) => {
      focused = { label, ids: new Set(requestIds) };
      // A finding's requests may be another account's or operation's than the filter shows.
      if (filter.account_id || filter.operation_id) widen();
      else applyStatusFilter();
      byId('requests').scrollIntoView({ block: 'start' });
    },
    unfocus: () => {
      focused = undefined;
      applyStatusFilter();
    },
    filter: (event) => {
      const fields = fieldsOf(event);
      const next = { account_id: fields.account_id, operation_id: fields.operation_id, status: (fields.status ?? '') as StatusClass | '' };
      const refetch = next.account_id !== filter.account_id || next.operation_id !== filter.operation_id;
      filter = next;
      if (!refetch) return applyStatusFilter();
      restart();
      // After the poll in flight (if any, it read the old filter and is dropped), read the new list at once.
      void Promise.resolve(inFlight)
        .then(refresh)
        .catch((error: unknown) => notify(describe(error)));
    },
  };
}
