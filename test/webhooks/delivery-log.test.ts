/** The delivery log's bookkeeping (src/webhooks/delivery-log.ts): bytes counted once per payload, freed when its last delivery goes. */
import { describe, expect, it } from 'vitest';
import { DeliveryLog, ENTRY_OVERHEAD, loggedPayload, type LogEntry } from '../../src/webhooks/delivery-log.js';

function entries() {
  let n = 0;
  return (accountId: string, payload = loggedPayload('x'.repeat(1000))): LogEntry => ({ id: `whd_${++n}`, accountId, payload });
}

describe('contract §4.3: the delivery log counts bytes', () => {
  it('contract §4.3: a payload shared by several deliveries is counted once, and freed with the last of them', () => {
    const dropped: string[] = [];
    const log = new DeliveryLog<LogEntry>({ count: 3, bytes: 1e9, sandboxBytes: 1e9 }, (entry) => dropped.push(entry.id));
    const make = entries();
    const shared = loggedPayload('é'.repeat(500));
    expect(shared.bytes).toBe(1000);
    for (let i = 0; i < 3; i++) log.add(make('a', shared));
    expect(log.bytes('a')).toBe(1000 + 3 * ENTRY_OVERHEAD);
    log.add(make('a'));
    log.add(make('a'));
    log.add(make('a'));
    // The count bound pushed the three sharers out, oldest first, and their payload with them.
    expect(dropped).toEqual(['whd_1', 'whd_2', 'whd_3']);
    expect(log.bytes('a')).toBe(3 * (1000 + ENTRY_OVERHEAD));
    expect(log.bytes()).toBe(log.bytes('a'));
  });

  it('contract §4.3: listing newest first reads one account, or every account, without copying; forgetting an account frees its bytes', () => {
    const log = new DeliveryLog<LogEntry>({ count: 10, bytes: 1e9, sandboxBytes: 1e9 }, () => {});
    const make = entries();
    for (const account of ['a', 'b', 'a', 'b']) log.add(make(account));
    expect([...log.newestFirst('a')].map((e) => e.id)).toEqual(['whd_3', 'whd_1']);
    expect([...log.newestFirst()].map((e) => e.id)).toEqual(['whd_4', 'whd_3', 'whd_2', 'whd_1']);
    const first = log.newestFirst().next();
    expect(first.value?.id).toBe('whd_4');
    log.forgetAccount('a');
    expect([...log.newestFirst()].map((e) => e.id)).toEqual(['whd_4', 'whd_2']);
    expect(log.get('whd_1')).toBeUndefined();
    expect(log.bytes()).toBe(2 * (1000 + ENTRY_OVERHEAD));
    log.forgetAccount('b');
    expect(log.bytes()).toBe(0);
    expect([...log.newestFirst()]).toEqual([]);
  });

  it("contract §4.3: over the sandbox's budget the heaviest account's oldest go: a light account's deliveries survive a flood by many heavier ones", () => {
    const dropped: string[] = [];
    const log = new DeliveryLog<LogEntry>({ count: 1000, bytes: 1e9, sandboxBytes: 40_000 }, (entry) => dropped.push(entry.id));
    const make = entries();
    const light = make('light', loggedPayload('l'.repeat(100)));
    log.add(light);
    for (let i = 0; i < 50; i++) log.add(make(`heavy-${i}`, loggedPayload('h'.repeat(5000))));
    expect(log.bytes()).toBeLessThanOrEqual(40_000);
    expect(log.holds(light)).toBe(true);
    // Of the heavy ones, all as heavy, the oldest went first.
    expect(dropped[0]).toBe('whd_2');
  });

  it('contract §4.3: a light account adding while a heavy one fills the sandbox keeps its own older deliveries', () => {
    // The heavy account's deliveries fill the sandbox to within 1,124 bytes (one light delivery) of its budget.
    const log = new DeliveryLog<LogEntry>({ count: 1000, bytes: 1e9, sandboxBytes: 38_000 }, () => {});
    const make = entries();
    const first = make('light', loggedPayload('l'.repeat(100)));
    log.add(first);
    for (let i = 0; i < 20; i++) log.add(make('heavy', loggedPayload('h'.repeat(5000))));
    const second = make('light', loggedPayload('l'.repeat(100)));
    log.add(second);
    expect([log.holds(first), log.holds(second)]).toEqual([true, true]);
    expect(log.bytes()).toBeLessThanOrEqual(38_000);
  });

  it('contract §4.3: the delivery just added stays even when its account is the heaviest and holds nothing else', () => {
    const log = new DeliveryLog<LogEntry>({ count: 1000, bytes: 1e9, sandboxBytes: 10_000 }, () => {});
    const make = entries();
    const small = make('a', loggedPayload('a'.repeat(100)));
    log.add(small);
    const huge = make('b', loggedPayload('b'.repeat(50_000)));
    log.add(huge);
    expect([log.holds(small), log.holds(huge)]).toEqual([false, true]);
  });
});
