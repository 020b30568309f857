/** Contract §4.4: the dashboard's views, rendered in Node (they hold no DOM). */
import { describe, expect, it, vi } from 'vitest';
import type { ActiveScenarioView, JournalEntryView } from '../../src/ui/page/api-types.js';
import { accountItem, accountLabel } from '../../src/ui/page/accounts-view.js';
import { JournalFeed, journalEntry, matchesStatus, statusClass } from '../../src/ui/page/journal-view.js';
import { jsonView } from '../../src/ui/page/json-view.js';
import { layout } from '../../src/ui/page/layout.js';
import { paramSummary, paramsExample, paramsHint } from '../../src/ui/page/params-hint.js';
import { activeList, remainingText, scopeText } from '../../src/ui/page/scenarios-view.js';
import { findAll, textOf, type VNode } from '../../src/ui/page/vnode.js';
import { eventsField } from '../../src/ui/page/webhooks-view.js';

function entry(id: number, changes: Partial<JournalEntryView> = {}): JournalEntryView {
  return {
    request_id: `req_${String(id).padStart(12, '0')}`,
    method: 'POST',
    path: '/v1/auth/keys',
    query: {},
    status: 201,
    account_id: 'acct_free_default',
    api_key_id: 'key_free_default',
    operation_id: 'createApiKey',
    idempotent_replayed: false,
    scenario_ids: [],
    fault: null,
    timestamp: '2026-01-15T12:00:00.000Z',
    headers: { 'content-type': 'application/json' },
    body: { name: 'ci' },
    response: { status: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { id: 'key_1', token: 'cc_test_x' } },
    finding_ids: [],
    ...changes,
  };
}

const noop = () => {};
const HANDLERS = {
  freeze: noop,
  run: noop,
  advance: noop,
  activate: noop,
  scenarioChosen: noop,
  filterRequests: noop,
  showAllRequests: noop,
  useToken: noop,
  createEndpoint: noop,
  triggerEvent: noop,
  webhookAccountChosen: noop,
};
const ACTIONS = {
  toggle: noop,
  reset: noop,
  remove: noop,
  reload: noop,
  setClock: noop,
  advanceClock: noop,
  setClockTime: noop,
  download: noop,
};
const byTag = (node: VNode, tag: string) => findAll(node, (inner) => inner.tag === tag);

describe('the dashboard views (contract §4.4)', () => {
  it('contract §4.4: the regions, buttons and labels carry the accessible names the contract fixes', () => {
    const body = { tag: 'body', attrs: {}, children: layout(HANDLERS) };
    const regions = byTag(body, 'section').map((section) => textOf(byTag(section, 'h2')[0]));
    // A deliberate change detector: contract §4.4 fixes these names, and scripts find the regions by them.
    // Page order: the clock, then the left column (requests, findings, scenarios), then the right (accounts, webhooks).
    expect(regions).toEqual(['Clock', 'Requests', 'Findings', 'Scenarios', 'Accounts', 'Webhooks']);
    const buttons = byTag(body, 'button').map(textOf);
    expect(buttons).toEqual(expect.arrayContaining(['Freeze', 'Run', 'Advance', 'Activate', 'Create endpoint', 'Trigger event']));
    const labels = byTag(body, 'label').map((label) => textOf(label.children[0]));
    expect(labels).toEqual(expect.arrayContaining(['Seconds', 'Scenario', 'Account', 'Endpoint URL', 'Event type']));
    // Every region is a landmark named by its heading.
    for (const section of byTag(body, 'section')) expect(section.attrs['aria-labelledby']).toBe(byTag(section, 'h2')[0]!.attrs.id);
  });

  it('contract §4.4: a journal entry opens its request (facts, body) and its response (status, body)', () => {
    const view = journalEntry(entry(7, { query: { limit: ['1', '2'] }, scenario_ids: ['scn_1'] }));
    expect(textOf(byTag(view, 'summary')[0])).toBe('201 POST /v1/auth/keys?limit=1&limit=2 createApiKey 2026-01-15T12:00:00.000Z');
    const text = textOf(view);
    expect(text).toContain('Request id req_000000000007');
    expect(text).toContain('Scenarios scn_1');
    expect(text).toContain('Request body body {1 key} name: "ci"');
    expect(text).toContain('Response Status 201 body {2 keys} id: "key_1" token: "cc_test_x"');
  });

  it('contract §4.4: an entry that got no answer (a fault) says so', () => {
    const text = textOf(journalEntry(entry(1, { status: null, response: null, fault: 'connection-reset', body: null })));
    expect(text).toContain('no answer');
    expect(text).toContain('Nothing was answered');
    expect(text).toContain('Fault connection-reset');
    expect(text).toContain('No JSON body');
  });

  it('contract §3.4, §4.4: a body over the journal body limit shows as truncated, with its length and head, never as "No JSON body"', () => {
    const cut = { bytes: 1_040_017, head: '{"metadata":{"note":"xxxx' };
    const text = textOf(
      journalEntry(
        entry(2, {
          body: null,
          body_truncated: cut,
          response: { status: 200, headers: {}, body: null, body_truncated: { bytes: 2_000_000, head: '{"id"' } },
        }),
      ),
    );
    expect(text).toContain('Truncated: 1,040,017 bytes, the first 25 kept');
    expect(text).toContain('{"metadata":{"note":"xxxx');
    expect(text).toContain('Truncated: 2,000,000 bytes, the first 5 kept');
    expect(text).not.toContain('No JSON body');
    expect(text).not.toContain('No body kept');
  });

  it('contract §4.4: the status filter groups statuses by class, and "none" for no answer', () => {
    expect([201, 302, 404, 429, 500, 503, null].map(statusClass)).toEqual(['2xx', '3xx', '4xx', '4xx', '5xx', '5xx', 'none']);
    expect(matchesStatus(entry(1, { status: 404 }), '4xx')).toBe(true);
    expect(matchesStatus(entry(1, { status: 404 }), '2xx')).toBe(false);
    expect(matchesStatus(entry(1, { status: 404 }), '')).toBe(true);
  });

  it('contract §4.4: the feed keeps the newest entries first, drops repeats and the oldest past its capacity', () => {
    const feed = new JournalFeed(3);
    expect(feed.cursor).toBeUndefined();
    expect(feed.addNewer([entry(2), entry(1)])!.map((e) => e.request_id)).toEqual(['req_000000000002', 'req_000000000001']);
    // Polled from the second newest: the answer ends with the newest shown, which is not added again.
    expect(feed.cursor).toBe('req_000000000001');
    expect(feed.addNewer([entry(4), entry(3), entry(2)])!.map((e) => e.request_id)).toEqual(['req_000000000004', 'req_000000000003']);
    expect(feed.entries.map((e) => e.request_id)).toEqual(['req_000000000004', 'req_000000000003', 'req_000000000002']);
    expect(feed.addNewer([entry(4)])).toEqual([]);
    feed.clear();
    expect(feed.cursor).toBeUndefined();
  });

  it('contract §4.4: an answer that does not end with the newest entry shown is another journal (reset, emptied): start over', () => {
    const feed = new JournalFeed();
    feed.addNewer([entry(2), entry(1)]);
    // After a sandbox reset request ids restart: the same id, another request.
    expect(feed.addNewer([entry(3), entry(2, { path: '/v1/status', method: 'GET' })])).toBeUndefined();
    // The newest entry shown is gone (its account was reset): nothing newer than the cursor ends with it.
    expect(feed.addNewer([])).toBeUndefined();
    expect(feed.entries).toHaveLength(2);
  });

  it('contract §4.4: an account shows its plan and clock, its state as JSON, and names its Reset and Delete buttons after it', () => {
    const reset = vi.fn();
    const account = { id: 'acct_1', plan: 'paid' as const, clock: { now: '2026-01-15T12:00:00Z', mode: 'frozen' as const, shared: false } };
    const view = accountItem(account, { customers: [{ id: 'cus_1' }] }, false, { ...ACTIONS, reset });
    expect(textOf(byTag(view, 'summary')[0])).toBe('acct_1 · paid · 2026-01-15T12:00:00Z (frozen, own clock)');
    const buttons = byTag(view, 'button');
    expect(buttons.map((button) => button.attrs['aria-label'])).toEqual(['Reload state of acct_1', 'Reset acct_1', 'Delete acct_1']);
    (buttons[1]!.attrs.onclick as (event: Event) => void)({} as Event);
    expect(reset).toHaveBeenCalledWith('acct_1');
    expect(textOf(view)).toContain('customers [1] 0 {1 key} id: "cus_1"');
  });

  it("contract §4.1, §4.4: an opened account has its clock's controls, named after it; Own clock only while it follows the sandbox clock", () => {
    const setClock = vi.fn();
    const clock = { now: '2026-01-15T12:00:00Z', mode: 'running' as const, shared: true };
    const shared = accountItem({ id: 'acct_1', plan: 'free', name: 'Ada', clock }, undefined, true, { ...ACTIONS, setClock });
    const names = (view: VNode) => byTag(view, 'button').map((button) => button.attrs['aria-label']);
    expect(names(shared)).toEqual([
      'Own clock for acct_1',
      'Freeze clock of acct_1',
      'Run clock of acct_1',
      'Advance clock of acct_1',
      'Set clock of acct_1',
      'Reload state of acct_1',
      'Reset acct_1',
      'Delete acct_1',
      'Download HAR of acct_1',
      'Download snapshot of acct_1',
    ]);
    (byTag(shared, 'button')[0]!.attrs.onclick as (event: Event) => void)({} as Event);
    expect(setClock).toHaveBeenCalledWith('acct_1', {});
    (byTag(shared, 'button')[1]!.attrs.onclick as (event: Event) => void)({} as Event);
    expect(setClock).toHaveBeenLastCalledWith('acct_1', { mode: 'frozen' });
    expect(byTag(shared, 'input').map((input) => input.attrs['aria-label'])).toEqual(['Seconds to advance acct_1', 'Time for acct_1']);
    const own = accountItem({ id: 'acct_1', plan: 'free', clock: { ...clock, shared: false } }, undefined, true, ACTIONS);
    expect(names(own)).not.toContain('Own clock for acct_1');
    // The instant is its own element, updated in place by the page (a running clock redraws nothing else).
    expect(byTag(shared, 'time').map((time) => time.attrs['data-clock-of'])).toEqual(['acct_1']);
  });

  it('contract §4.4: account pickers show the name beside the id', () => {
    expect(accountLabel({ id: 'acct_1', name: 'Free Tier Creator' })).toBe('acct_1 — Free Tier Creator');
    expect(accountLabel({ id: 'acct_2' })).toBe('acct_2');
  });

  it('contract §4.4: the params hint says what a scenario takes, from its declaration, and the example is its defaults', () => {
    const rateLimited = {
      name: 'rate-limited',
      description: '429',
      params: {
        retry_after: { description: 'Seconds until the reset.', type: ['integer', 'null'], minimum: 0, maximum: 86400, default: null },
        when: { type: 'string', enum: ['before', 'after'] },
      },
    };
    expect(textOf({ tag: 'div', attrs: {}, children: paramsHint(rateLimited) })).toBe(
      'rate-limited takes: retry_after — integer or null, 0–86400, default null. Seconds until the reset. when — one of "before", "after"',
    );
    expect(paramsExample(rateLimited)).toBe('{"retry_after":null}');
    expect(textOf({ tag: 'div', attrs: {}, children: paramsHint({ name: 'server-error', description: '500', params: {} }) })).toBe(
      'server-error takes no params.',
    );
    expect(paramSummary({ type: 'string', format: 'date-time', default: '2026-01-01T00:00:00Z' })).toBe(
      'string (date-time), default "2026-01-01T00:00:00Z"',
    );
  });

  it('contract §4.4: instants are <time> elements (the style sheet keeps them on one line)', () => {
    const view = journalEntry(entry(3));
    expect(byTag(view, 'time').map((time) => time.attrs.datetime)).toEqual(['2026-01-15T12:00:00.000Z', '2026-01-15T12:00:00.000Z']);
  });

  it('contract §4.3: the Events field of a new endpoint is a list of types; empty means every event', () => {
    expect(eventsField('customer.created, job.failed  inbox.updated')).toEqual(['customer.created', 'job.failed', 'inbox.updated']);
    expect(eventsField('  ')).toBeUndefined();
    expect(eventsField(undefined)).toBeUndefined();
  });

  it('contract §4.4: active scenarios show their scope and what remains, each with a Deactivate button', () => {
    const active: ActiveScenarioView = {
      id: 'scn_1',
      name: 'server-error',
      account_id: 'acct_1',
      api_key_id: null,
      operation_id: 'getStatus',
      remaining: 2,
      probability: 1,
      params: {},
    };
    expect(scopeText(active)).toBe('account acct_1, operation getStatus');
    expect([remainingText(active), remainingText({ ...active, remaining: 1 }), remainingText({ ...active, remaining: null })]).toEqual([
      '2 times left',
      '1 time left',
      'until deactivated',
    ]);
    const deactivate = vi.fn();
    const view = activeList([active], deactivate);
    const [button] = byTag(view, 'button');
    expect(textOf(button)).toBe('Deactivate');
    (button!.attrs.onclick as (event: Event) => void)({} as Event);
    expect(deactivate).toHaveBeenCalledWith('scn_1');
    expect(textOf(activeList([], deactivate))).toBe('No active scenario');
  });

  it('contract §4.4: JSON collapses by level; empty objects and arrays show inline', () => {
    const view = jsonView({ a: { b: [] }, c: null }, 'state', 1) as VNode;
    expect(view.attrs.open).toBe(true);
    expect(byTag(view, 'details').map((details) => details.attrs.open)).toEqual([true, false]);
    expect(textOf(view)).toBe('state {2 keys} a {1 key} b: [] c: null');
  });
});
