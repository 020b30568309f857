/**
 * Drops from the middle of the journal's indexes: past the byte budget the heaviest account's oldest
 * entry goes (src/protocol/request-journal.ts), which sits anywhere in the list of every entry and in
 * its operation's list. Such a removal moves no other ticket (a tombstone, compacted lazily: O(log n)
 * to find it, amortized O(1) to clear), and every listing keeps its results and order, pinned here
 * against a plain sorted array and a naive journal.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TicketList } from '../../src/protocol/journal-index.js';
import { RequestJournal, type JournalFilter } from '../../src/protocol/request-journal.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const keyOf = (ticket: number) => `k${String(ticket).padStart(8, '0')}`;

describe('TicketList: removals anywhere', () => {
  it('a removal from the middle moves no other ticket: 10,000 of them in a list of 100,000 never splice the array', () => {
    const list = new TicketList();
    for (let t = 1; t <= 100_000; t++) list.add(t);
    const splice = vi.spyOn(Array.prototype, 'splice');
    for (let t = 40_001; t <= 60_000; t += 2) list.remove(t);
    expect(splice).not.toHaveBeenCalled();
    expect(list.size).toBe(90_000);
    expect([...list.descending(40_006)]).toEqual([40_004, 40_002, 40_000, ...[...list.descending(40_000)]]);
    expect([...list.ascending(59_995)].slice(0, 3)).toEqual([59_996, 59_998, 60_000]);
  });

  it('equals a sorted array through random adds (mostly in order), removals anywhere and in bulk (seeded property)', () => {
    type Op =
      | { kind: 'add'; back: number }
      | { kind: 'remove'; pick: number }
      | { kind: 'front' }
      | { kind: 'removeAll'; picks: number[] }
      | { kind: 'check'; bound: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('add' as const), back: fc.oneof(fc.constant(0), fc.nat({ max: 6 })) }) },
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('front' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeAll' as const), picks: fc.array(fc.nat(), { maxLength: 6 }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('check' as const), bound: fc.nat() }) },
    );
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 250, size: 'max' }), (ops) => {
        const list = new TicketList();
        let model: number[] = [];
        let next = 0;
        const issuedAll: number[] = [];
        for (const op of ops) {
          if (op.kind === 'add') {
            // Answered after up to six newer requests were: a ticket below the newest, never one seen.
            next += 1 + op.back;
            const ticket = next - op.back;
            if (issuedAll.includes(ticket)) continue;
            issuedAll.push(ticket);
            list.add(ticket);
            model = [...model, ticket].sort((a, b) => a - b);
          } else if (op.kind === 'remove') {
            // A kept ticket, or one never kept or already gone (nothing happens).
            const ticket = op.pick % 3 === 0 || model.length === 0 ? (op.pick % (next + 2)) + 1 : model[op.pick % model.length]!;
            list.remove(ticket);
            model = model.filter((t) => t !== ticket);
          } else if (op.kind === 'front' && model.length > 0) {
            list.remove(model[0]!);
            model = model.slice(1);
          } else if (op.kind === 'removeAll') {
            const gone = new Set(op.picks.map((pick) => (model.length === 0 ? pick : model[pick % model.length]!)));
            list.removeAll(gone);
            model = model.filter((t) => !gone.has(t));
          }
          const bound = op.kind === 'check' ? op.bound % (next + 3) : next + 1;
          expect(list.size).toBe(model.length);
          expect(list.first()).toBe(model[0]);
          expect([...list.descending()]).toEqual([...model].reverse());
          expect([...list.descending(bound)]).toEqual(model.filter((t) => t < bound).reverse());
          expect([...list.ascending(bound)]).toEqual(model.filter((t) => t > bound));
          // Keys read only for kept tickets: a removed one's entry is gone.
          const kept = new Set(model);
          const read = (t: number) => {
            if (!kept.has(t)) throw new Error(`read the key of ticket ${t}, which is not kept`);
            return keyOf(t);
          };
          expect(list.findByAscendingKey(keyOf(bound), read)).toBe(kept.has(bound) ? bound : undefined);
        }
      }),
      { seed: 28, numRuns: 100, endOnFailure: true },
    );
  });
});

describe('the journal past its byte budget: drops from the middle keep every listing', () => {
  it('contract §3.4: after the heaviest account loses entries from the middle, every filtered and cursored page equals a naive scan of what is kept (seeded property)', () => {
    const ACCOUNTS = ['acct_heavy', 'acct_a', 'acct_b', null] as const;
    const OPERATIONS = ['createThing', 'getStatus'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ account: fc.nat({ max: 3 }), operation: fc.nat({ max: 1 }), body: fc.nat({ max: 3000 }), late: fc.nat({ max: 2 }) }),
          { minLength: 20, maxLength: 150 },
        ),
        (requests) => {
          const journal = new RequestJournal(10_000, { budget: 40_000 });
          const arrivals: { ticket: number; request_id: string; account_id: string | null; operation_id: string }[] = [];
          const pending: { ticket: number; fields: (typeof arrivals)[number]; body: number }[] = [];
          const answer = (p: (typeof pending)[number]) =>
            journal.finish(p.ticket, {
              status: 200,
              account_id: p.fields.account_id,
              api_key_id: p.fields.account_id && `key_${p.fields.account_id}`,
              operation_id: p.fields.operation_id,
              idempotent_replayed: false,
              scenario_ids: [],
              fault: null,
              // The heavy account sends large bodies: it is the one the budget drops from.
              raw_body: 'x'.repeat(p.fields.account_id === 'acct_heavy' ? p.body * 4 : p.body % 200),
            });
          for (const [i, r] of requests.entries()) {
            const request_id = `req_${String(i).padStart(6, '0')}`;
            const ticket = journal.arrive({ request_id, method: 'POST', path: '/v1/things', querystring: '', at: 0 });
            const fields = { ticket, request_id, account_id: ACCOUNTS[r.account]!, operation_id: OPERATIONS[r.operation]! };
            arrivals.push(fields);
            pending.push({ ticket, fields, body: r.body });
            // Answers come out of order: up to two requests wait behind newer ones.
            while (pending.length > r.late) answer(pending.shift()!);
          }
          for (const p of pending) answer(p);
          expect(journal.bytes).toBeLessThanOrEqual(40_000);

          const everything = journal.list({ limit: 1e9 }).data.map((e) => e.request_id);
          const keptIds = new Set(everything);
          const kept = arrivals.filter((a) => keptIds.has(a.request_id)).reverse();
          // Newest first, by arrival, and nothing listed twice.
          expect(everything).toEqual(kept.map((a) => a.request_id));
          const filters: JournalFilter[] = [];
          for (const account_id of [undefined, 'acct_heavy', 'acct_a', 'acct_b'])
            for (const operation_id of [undefined, ...OPERATIONS]) filters.push({ account_id, operation_id, limit: 3 });
          for (const filter of filters) {
            const expected = kept
              .filter(
                (a) =>
                  (filter.account_id === undefined || a.account_id === filter.account_id) &&
                  (filter.operation_id === undefined || a.operation_id === filter.operation_id),
              )
              .map((a) => a.request_id);
            const defined = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as unknown as JournalFilter;
            const walked: string[] = [];
            for (let page = journal.list(defined); ;) {
              walked.push(...page.data.map((e) => e.request_id));
              if (!page.has_more || walked.length > arrivals.length) break;
              page = journal.list({ ...defined, starting_after: walked[walked.length - 1]! });
            }
            expect(walked, JSON.stringify(filter)).toEqual(expected);
            // Newer pages through ending_before, from the oldest kept one.
            if (expected.length > 1) {
              const newer = journal.list({ ...defined, ending_before: expected[expected.length - 1]!, limit: 1e9 });
              expect(newer.data.map((e) => e.request_id)).toEqual(expected.slice(0, -1));
            }
          }
          expect(journal.clear()).toBe(kept.length);
        },
      ),
      { seed: 28, numRuns: 80, endOnFailure: true },
    );
  });

  it('the budget drops entries of the heavy account from the middle of the journal, not only its oldest', () => {
    const journal = new RequestJournal(10_000, { budget: 150_000 });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const heavy = i % 2 === 0;
      const request_id = `req_${String(i).padStart(6, '0')}`;
      ids.push(request_id);
      const ticket = journal.arrive({ request_id, method: 'POST', path: '/v1/things', querystring: '', at: 0 });
      journal.finish(ticket, {
        status: 200,
        account_id: heavy ? 'acct_heavy' : 'acct_light',
        api_key_id: null,
        operation_id: 'createThing',
        idempotent_replayed: false,
        scenario_ids: [],
        fault: null,
        raw_body: heavy ? 'x'.repeat(2000) : 'y',
      });
    }
    const kept = journal.list({ limit: 1e9 }).data.map((e) => e.request_id);
    // Light entries older than kept heavy ones survive: the drops were in the middle of the list.
    expect(kept).toContain(ids[1]);
    expect(kept.length).toBeLessThan(ids.length);
    expect(kept).toEqual(ids.filter((id) => kept.includes(id)).reverse());
  });
});
