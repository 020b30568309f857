/**
 * The one ledger of an account's unfinished jobs (src/jobs/ledger.ts): settles see open and watched
 * jobs, the webhook hub sees watched jobs until it has announced them (ended by a read or not), in
 * end order, then in the order they were watched. Checked by example, and against a model of the two
 * ledgers it replaced (the settle ledger, and the hub's own index of watched jobs) over random runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobLedger } from '../../src/jobs/ledger.js';
import type { JobRecord } from '../../src/store/records.js';
import { OrderedIndex } from '../../src/store/ordered-index.js';
import { fuzzRuns } from '../support/fuzz-runs.js';

/** What the ledger reads of a job: its end, its hold, its status. */
function job(name: string, endsAt: number, hold = 1): JobRecord {
  return { id: name, status: 'queued', credits_hold: hold, timeline: { ends_at_ms: endsAt } } as unknown as JobRecord;
}

/** A settle seeing the job end, as src/jobs/settle.ts does it. */
function settleEnded(ledger: JobLedger, record: JobRecord): void {
  record.status = 'completed';
  ledger.ended(record);
}

const ids = (jobs: JobRecord[]) => jobs.map((record) => record.id);

describe('the ledger of unfinished jobs', () => {
  it('an open job (its answer not published) is settled by credit checks but not due for the hub', () => {
    const ledger = new JobLedger();
    const a = job('a', 10, 5);
    ledger.track(a);
    expect(ids(ledger.unfinishedBy(10))).toEqual(['a']);
    expect(ledger.held).toBe(5);
    expect(ledger.firstDueAt()).toBeUndefined();
    expect(ledger.dueBy(100)).toEqual([]);
    ledger.watch(a);
    expect(ledger.firstDueAt()).toBe(10);
    expect(ids(ledger.dueBy(10))).toEqual(['a']);
    expect(ids(ledger.unfinishedBy(10))).toEqual(['a']);
  });

  it('equal ends are due in the order the jobs were watched, not created; a read keeps a job in its place', () => {
    const ledger = new JobLedger();
    const [a, b, c] = [job('a', 10), job('b', 10), job('c', 10)];
    for (const record of [a, b, c]) ledger.track(record);
    ledger.watch(c);
    ledger.watch(a);
    ledger.watch(b);
    expect(ids(ledger.dueBy(10))).toEqual(['c', 'a', 'b']);
    // Read (settled, ended) before the hub announces it: no longer held, still due in its place.
    settleEnded(ledger, a);
    expect(ids(ledger.unfinishedBy(10))).toEqual(['c', 'b']);
    expect(ids(ledger.dueBy(10))).toEqual(['c', 'a', 'b']);
    expect(ledger.held).toBe(2);
  });

  it('a job settled before it was watched is still announced once watched, at its end', () => {
    const ledger = new JobLedger();
    const [a, b] = [job('a', 10), job('b', 5)];
    ledger.track(a);
    ledger.track(b);
    settleEnded(ledger, a);
    expect(ledger.unfinished()).toEqual([b]);
    expect(ledger.dueBy(100)).toEqual([]);
    ledger.watch(a);
    ledger.watch(b);
    expect(ledger.firstDueAt()).toBe(5);
    expect(ids(ledger.dueBy(100))).toEqual(['b', 'a']);
    ledger.announced(a);
    expect(ids(ledger.dueBy(100))).toEqual(['b']);
  });

  it('a job announced while still unfinished (the clock set back) is left to settles alone', () => {
    const ledger = new JobLedger();
    const a = job('a', 10);
    ledger.track(a);
    ledger.watch(a);
    ledger.announced(a);
    expect(ledger.firstDueAt()).toBeUndefined();
    expect(ids(ledger.unfinished())).toEqual(['a']);
    settleEnded(ledger, a);
    expect(ledger.unfinished()).toEqual([]);
    expect(ledger.held).toBe(0);
  });

  it('a job is tracked once: its hold is counted once, and freed once', () => {
    const ledger = new JobLedger();
    const a = job('a', 10, 7);
    expect(ledger.track(a)).toBe(true);
    expect(ledger.track(a)).toBe(false);
    expect(ledger.held).toBe(7);
    settleEnded(ledger, a);
    settleEnded(ledger, a);
    // A job the ledger never counted frees nothing.
    settleEnded(ledger, job('b', 10, 3));
    expect(ledger.held).toBe(0);
  });

  it('an unfinished job watched without having been tracked holds its credits until it ends', () => {
    const ledger = new JobLedger();
    const a = job('a', 10, 7);
    ledger.watch(a);
    expect(ledger.held).toBe(7);
    expect(ids(ledger.unfinishedBy(10))).toEqual(['a']);
    settleEnded(ledger, a);
    expect(ledger.held).toBe(0);
    expect(ids(ledger.dueBy(10))).toEqual(['a']);
  });
});

/** The two ledgers the one replaced, as they were: the settle ledger and the hub's watched jobs. */
class TwoLedgers {
  readonly settle = new OrderedIndex<JobRecord>();
  readonly hub = new OrderedIndex<JobRecord>();
  held = 0;
  track(record: JobRecord) {
    if (this.settle.add(record.timeline.ends_at_ms, record)) this.held += record.credits_hold;
  }
  ended(record: JobRecord) {
    this.settle.delete(record);
    this.held -= record.credits_hold;
  }
  watch(record: JobRecord) {
    this.hub.put(record.timeline.ends_at_ms, record);
  }
  announced(record: JobRecord) {
    this.hub.delete(record);
  }
}

type Step = { kind: 'create'; end: number } | { kind: 'watch' | 'settle' | 'announce'; pick: number } | { kind: 'check'; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), end: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constantFrom('watch' as const, 'settle' as const, 'announce' as const), pick: fc.nat(40) }),
  fc.record({ kind: fc.constant('check' as const), at: fc.integer({ min: -1, max: 7 }) }),
);

describe('the one ledger answers what the two ledgers answered', () => {
  it('same jobs settled, same holds, same first due instant, same jobs due in the same order', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const one = new JobLedger();
        const two = new TwoLedgers();
        const created: JobRecord[] = [];
        const unwatched: JobRecord[] = [];
        const sorted = (jobs: JobRecord[]) => ids(jobs).sort();
        for (const s of steps) {
          if (s.kind === 'create') {
            const record = job(`j${created.length}`, s.end, 1 + (created.length % 3));
            created.push(record);
            unwatched.push(record);
            one.track(record);
            two.track(record);
          } else if (s.kind === 'watch') {
            // Each job's answer is published once.
            if (unwatched.length === 0) continue;
            const [record] = unwatched.splice(s.pick % unwatched.length, 1);
            one.watch(record!);
            two.watch(record!);
          } else if (s.kind === 'settle') {
            // A settle sees an unfinished job end once.
            const open = created.filter((record) => record.status === 'queued');
            if (open.length === 0) continue;
            const record = open[s.pick % open.length]!;
            record.status = 'completed';
            one.ended(record);
            two.ended(record);
          } else if (s.kind === 'announce') {
            // The hub announces a job it has due (the soonest, or any of a drain's batch).
            const due = two.hub.all();
            if (due.length === 0) continue;
            const record = due[s.pick % due.length]!;
            one.announced(record);
            two.announced(record);
          } else if (s.kind === 'check') {
            expect(sorted(one.unfinishedBy(s.at))).toEqual(sorted(two.settle.upTo(s.at)));
            expect(ids(one.dueBy(s.at))).toEqual(ids(two.hub.upTo(s.at)));
          }
          expect(one.held).toBe(two.held);
          expect(one.held).toBe(one.unfinished().reduce((sum, record) => sum + record.credits_hold, 0));
          expect(sorted(one.unfinished())).toEqual(sorted(two.settle.all()));
          expect(one.firstDueAt()).toBe(two.hub.firstAt());
          expect(ids(one.dueBy(Number.POSITIVE_INFINITY))).toEqual(ids(two.hub.all()));
        }
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});
