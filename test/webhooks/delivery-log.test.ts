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
});
