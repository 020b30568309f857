/**
 * The journal's filters (`account_id`, `api_key_id`, `operation_id`, contract §3.4) and deep cursors
 * are answered from indexes, in O(log n + page) instead of a scan. Pinned here against a
 * naive model of the journal (a list of arrivals, filtered newest first), through random arrivals,
 * answers in any order, evictions by the ring, account forgets and clears.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TicketList } from '../../src/protocol/journal-index.js';
import { RequestJournal, UnknownJournalCursor, type JournalFilter, type JournalOutcome } from '../../src/protocol/request-journal.js';

const ACCOUNTS = ['acct_a', 'acct_b', 'acct_c'] as const;
const OPERATIONS = ['listExperiences', 'getStatus'] as const;

interface Fields {
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
}

/** What the journal must answer, the slow way: every arrival kept in order, filtered on each list. */
class NaiveJournal {
  private entries: { ticket: number; request_id: string; answered: boolean; fields: Fields }[] = [];
  private dead = new Set<number>();

  constructor(private readonly capacity: number) {}

  arrive(ticket: number, request_id: string): void {
    if (this.capacity === 0) return;
    this.entries.push({ ticket, request_id, answered: false, fields: { account_id: null, api_key_id: null, operation_id: null } });
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  finish(ticket: number, fields: Fields): void {
    const entry = this.entries.find((e) => e.ticket === ticket);
    if (!entry || this.dead.has(ticket)) return;
    entry.answered = true;
    entry.fields = fields;
  }

  forget(accountId: string): number {
    const gone = this.entries.filter((e) => e.answered && e.fields.account_id === accountId);
    for (const e of gone) {
      e.answered = false;
      this.dead.add(e.ticket);
    }
    return gone.length;
  }

  clear(): number {
    const count = this.entries.filter((e) => e.answered).length;
    this.entries = [];
    return count;
  }

  list(filter: JournalFilter): { ids: string[]; has_more: boolean } | 'unknown cursor' {
    let answered = this.entries.filter((e) => e.answered).reverse();
    if (filter.starting_after !== undefined) {
      const at = answered.findIndex((e) => e.request_id === filter.starting_after);
      if (at < 0) return 'unknown cursor';
      answered = answered.slice(at + 1);
    }
    const matching = answered.filter(
      (e) =>
        (filter.account_id === undefined || e.fields.account_id === filter.account_id) &&
        (filter.api_key_id === undefined || e.fields.api_key_id === filter.api_key_id) &&
        (filter.operation_id === undefined || e.fields.operation_id === filter.operation_id),
    );
    return { ids: matching.slice(0, filter.limit).map((e) => e.request_id), has_more: matching.length > filter.limit };
  }
}

function listed(journal: RequestJournal, filter: JournalFilter): ReturnType<NaiveJournal['list']> {
  try {
    const page = journal.list(filter);
    return { ids: page.data.map((e) => e.request_id), has_more: page.has_more };
  } catch (error) {
    if (error instanceof UnknownJournalCursor) return 'unknown cursor';
    throw error;
  }
}

const outcome = (fields: Fields): JournalOutcome => ({
  status: 200,
  ...fields,
  idempotent_replayed: false,
  scenario_ids: [],
  fault: null,
  raw_body: undefined,
});

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const fieldsArb: fc.Arbitrary<Fields> = fc
  .record({
    account: fc.option(fc.constantFrom(...ACCOUNTS)),
    key: fc.nat({ max: 1 }),
    operation: fc.option(fc.constantFrom(...OPERATIONS)),
  })
  // A key belongs to one account: `key_<account>_<n>`; no key without an account.
  .map(({ account, key, operation }) => ({ account_id: account, api_key_id: account && `key_${account}_${key}`, operation_id: operation }));

type Op =
  | { kind: 'arrive'; duplicateOf: number | undefined }
  | { kind: 'finish'; pick: number; fields: Fields }
  | { kind: 'forget'; account: string }
  | { kind: 'clear' }
  | { kind: 'list'; filter: Omit<JournalFilter, 'starting_after'>; cursor: number | undefined };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Request ids are unique, except when a custom generator repeats one (`repeatIds` runs).
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('arrive' as const), duplicateOf: fc.option(fc.nat(), { nil: undefined, freq: 3 }) }),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat(), fields: fieldsArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), account: fc.constantFrom(...ACCOUNTS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      filter: fc.record({
        account_id: maybe(fc.constantFrom(...ACCOUNTS, 'acct_none')),
        api_key_id: maybe(fc.constantFrom('key_acct_a_0', 'key_acct_b_1', 'key_none')),
        operation_id: maybe(fc.constantFrom(...OPERATIONS)),
        limit: fc.integer({ min: 1, max: 4 }),
      }),
      cursor: maybe(fc.nat()),
    }),
  },
);

/** The filter without the members fast-check left undefined (the route's parsed query has none). */
const defined = (filter: JournalFilter): JournalFilter =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as unknown as JournalFilter;

describe('journal indexes: account filters and deep cursors without a scan', () => {
  it('contract §3.4: every filtered and cursored page equals a naive scan, through random answers, evictions, forgets and clears (seeded property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        fc.array(opArb, { maxLength: 120, size: 'max' }),
        (capacity, repeatIds, ops) => {
          const journal = new RequestJournal(capacity);
          const naive = new NaiveJournal(capacity);
          const issued: { ticket: number; request_id: string }[] = [];
          for (const op of ops) {
            if (op.kind === 'arrive') {
              const request_id =
                repeatIds && op.duplicateOf !== undefined && issued.length > 0
                  ? issued[op.duplicateOf % issued.length]!.request_id
                  : // Fixed width, as the sandbox's own ids: they ascend, and cursors are found by binary
                    // search; a repeated id (or the sandbox's own past 10^12) turns that off for a ring search.
                    `req_${String(issued.length).padStart(4, '0')}`;
              const ticket = journal.arrive({ request_id, method: 'GET', path: '/v1/status', querystring: '', at: 0 });
              naive.arrive(ticket, request_id);
              issued.push({ ticket, request_id });
            } else if (op.kind === 'finish' && issued.length > 0) {
              // Any ticket, in any order: in flight, answered twice, evicted, or from before a clear.
              const { ticket } = issued[op.pick % issued.length]!;
              journal.finish(ticket, outcome(op.fields));
              naive.finish(ticket, op.fields);
            } else if (op.kind === 'forget') {
              expect(journal.forget(op.account)).toBe(naive.forget(op.account));
            } else if (op.kind === 'clear') {
              expect(journal.clear()).toBe(naive.clear());
            } else if (op.kind === 'list') {
              const cursor = op.cursor === undefined ? undefined : op.cursor < issued.length ? issued[op.cursor]!.request_id : 'req_never';
              const filter = defined({ ...op.filter, starting_after: cursor });
              expect(listed(journal, filter), JSON.stringify(filter)).toEqual(naive.list(filter));
            }
          }
          // Walking every page of every account, and of everything, gives what the naive scan gives
          // (with unique request ids: a repeated one names its newest entry, so a walk could loop).
          if (new Set(issued.map((i) => i.request_id)).size < issued.length) return;
          for (const account_id of [undefined, ...ACCOUNTS]) {
            const filter = defined({ account_id, limit: 2 });
            const walked: string[] = [];
            for (let page = listed(journal, filter); page !== 'unknown cursor';) {
              walked.push(...page.ids);
              // More entries than were ever issued: the walk loops (a wrong cursor or has_more).
              if (!page.has_more || walked.length > issued.length) break;
              page = listed(journal, { ...filter, starting_after: page.ids[page.ids.length - 1]! });
            }
            const all = naive.list({ ...filter, limit: 1e9 });
            expect(walked).toEqual(all === 'unknown cursor' ? [] : all.ids);
          }
        },
      ),
      { seed: 16, numRuns: 300, endOnFailure: true },
    );
  });

  it.each([
    // The sandbox's own ids sort as they are issued: cursors are found by binary search.
    ["the sandbox's own request ids", (i: number) => `req_${String(i).padStart(12, '0')}`],
    // Ids that do not sort as issued (a custom generator's): the ring is searched instead.
    ['request ids that do not sort', (i: number) => `req_${i}`],
  ])('contract §3.4: a deep cursor and an account filter stay exact across many wraps of the ring (%s)', (_, requestIdOf) => {
    const journal = new RequestJournal(1000);
    for (let i = 0; i < 5500; i++) {
      const ticket = journal.arrive({ request_id: requestIdOf(i), method: 'GET', path: '/v1/status', querystring: '', at: 0 });
      const account = i % 10 === 0 ? 'acct_rare' : 'acct_busy';
      journal.finish(ticket, outcome({ account_id: account, api_key_id: `key_${account}`, operation_id: 'getStatus' }));
    }
    // The ring holds requests 4500..5499; acct_rare made every tenth of them.
    const rare = journal.list({ account_id: 'acct_rare', limit: 1000 });
    expect(rare.data.map((e) => e.request_id)).toEqual(Array.from({ length: 100 }, (_, i) => requestIdOf(5490 - i * 10)));
    const deep = journal.list({ starting_after: requestIdOf(4502), limit: 10 });
    expect(deep).toMatchObject({ data: [{ request_id: requestIdOf(4501) }, { request_id: requestIdOf(4500) }], has_more: false });
    expect(journal.list({ ending_before: requestIdOf(5497), limit: 10 }).data.map((e) => e.request_id)).toEqual([
      requestIdOf(5499),
      requestIdOf(5498),
    ]);
    expect(() => journal.list({ starting_after: requestIdOf(4499), limit: 10 })).toThrow(UnknownJournalCursor);
    expect(() => journal.list({ starting_after: requestIdOf(9999), limit: 10 })).toThrow(UnknownJournalCursor);
    expect(journal.list({ account_id: 'acct_gone', limit: 10 })).toEqual({ data: [], has_more: false });
  });
});

describe('TicketList', () => {
  it('keeps tickets ascending whatever order they come in, lists them newest first below a bound, and drops them singly or in bulk', () => {
    const list = new TicketList();
    for (const ticket of [1, 2, 5, 3, 9, 4, 4]) list.add(ticket);
    expect([...list.descending()]).toEqual([9, 5, 4, 3, 2, 1]);
    expect([...list.descending(5)]).toEqual([4, 3, 2, 1]);
    expect([...list.descending(6)]).toEqual([5, 4, 3, 2, 1]);
    list.remove(1);
    list.remove(4);
    list.remove(7);
    expect([...list.descending()]).toEqual([9, 5, 3, 2]);
    list.removeAll(new Set([2, 9]));
    expect([...list.descending()]).toEqual([5, 3]);
    expect(list.size).toBe(2);
  });

  it('evicting from the front thousands of times compacts without losing order', () => {
    const list = new TicketList();
    for (let t = 1; t <= 10_000; t++) list.add(t);
    for (let t = 1; t <= 9_000; t++) list.remove(t);
    expect(list.size).toBe(1000);
    expect([...list.descending(9_003)]).toEqual([9_002, 9_001]);
  });
});
