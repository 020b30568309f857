/**
 * Contract §4.3 and the rule that memory is bounded in bytes: the bodies of the webhook attempts in
 * flight are bounded in bytes sandbox-wide (`webhookInflightBudget`), beside their count
 * (`webhookConcurrency`). An attempt whose body does not fit waits for a slot; lighter bodies behind
 * it pass while they fit, a bounded number of times, and never starve it; a body over the whole
 * budget goes alone. Counts and bytes, never time: the slots are driven by hand.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { AttemptSlots, MAX_PASSES, type ReleaseSlot } from '../../src/webhooks/attempt-slots.js';

/** Acquires a slot for `bytes` of body and records when (in grant order) it was given. */
function claimant(slots: AttemptSlots, granted: string[]) {
  return (name: string, bytes: number, hurried = false) => {
    const held: { release?: ReleaseSlot } = {};
    const done = slots.acquire(name, hurried, bytes).then((release) => {
      granted.push(name);
      held.release = release;
    });
    return { done, release: () => held.release?.() };
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

type Claim = ReturnType<ReturnType<typeof claimant>>;

/**
 * The rule for a heavy waiter: light bodies of other accounts (named `prefix-i`) pass it MAX_PASSES
 * times, one after another; the next light one waits behind it until `first` (in flight) ends, then
 * the heavy one goes before it.
 */
async function passedThenWaitedFor(claim: ReturnType<typeof claimant>, granted: string[], first: Claim, heavy: Claim, prefix: string) {
  for (let i = 0; i < MAX_PASSES; i++) {
    const light = claim(`${prefix}-${i}`, 2);
    await light.done;
    light.release();
  }
  const late = claim('late', 2);
  await settle();
  expect(granted).not.toContain('late');
  first.release();
  await heavy.done;
  await late.done;
  expect(granted.slice(-2)).toEqual(['heavy', 'late']);
}

describe('contract §4.3: the bodies of the attempts in flight are bounded in bytes', () => {
  it('contract §4.3: an attempt whose body would pass the budget waits for one in flight to end, then goes', async () => {
    const slots = new AttemptSlots(256, 10);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const a = claim('a', 6);
    const b = claim('b', 6);
    await settle();
    expect(granted).toEqual(['a']);
    expect(slots.bytesInFlight).toBe(6);
    expect(slots.waiting).toBe(1);
    a.release();
    await b.done;
    expect(granted).toEqual(['a', 'b']);
    expect(slots.bytesInFlight).toBe(6);
    b.release();
    expect(slots.bytesInFlight).toBe(0);
  });

  it('contract §4.3: a body larger than the whole budget goes alone, once nothing else is in flight', async () => {
    const slots = new AttemptSlots(256, 10);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const small = claim('small', 1);
    const huge = claim('huge', 50);
    const after = claim('after', 1);
    await settle();
    // The huge one waits for the small one; the one behind it fits, and passes it.
    expect(granted).toEqual(['small', 'after']);
    small.release();
    after.release();
    await huge.done;
    expect(granted).toEqual(['small', 'after', 'huge']);
    expect(slots.bytesInFlight).toBe(50);
    const next = claim('next', 1);
    await settle();
    expect(granted).not.toContain('next');
    huge.release();
    await next.done;
  });

  it('contract §4.3: the heaviest waits first: lighter bodies pass it while they fit, at most MAX_PASSES times, then wait for it', async () => {
    const slots = new AttemptSlots(256, 10);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const first = claim('first', 6);
    const heavy = claim('heavy', 8);
    await settle();
    expect(granted).toEqual(['first']);
    // Light bodies of other accounts, one after another: each fits beside `first`, and passes
    // `heavy`; passed MAX_PASSES times, the next light body fits but waits behind it.
    await passedThenWaitedFor(claim, granted, first, heavy, 'light');
    expect(granted).toEqual(['first', ...Array.from({ length: MAX_PASSES }, (_, i) => `light-${i}`), 'heavy', 'late']);
  });

  it('contract §4.3: the count still bounds: with room in bytes, no more than webhookConcurrency attempts are in flight', async () => {
    const slots = new AttemptSlots(2, 1_000);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const held = ['a', 'b', 'c'].map((name) => claim(name, 1));
    await settle();
    expect(granted).toEqual(['a', 'b']);
    held[0]!.release();
    await held[2]!.done;
    expect(granted).toEqual(['a', 'b', 'c']);
  });

  it('contract §4.3: a waiting attempt that went stale is withdrawn at once: no count, no bytes held, nobody waits behind it, never granted', async () => {
    const slots = new AttemptSlots(256, 10);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const first = claim('first', 6);
    await settle();
    // Its account is about to be reset: a body over the whole budget, waiting behind `first`.
    let reset = false;
    const stale = slots.acquire('reset', false, 50, () => reset);
    await settle();
    expect(slots.waiting).toBe(1);
    expect(slots.bytesWaiting).toBe(50);
    reset = true;
    slots.withdraw('reset');
    expect(slots.waiting).toBe(0);
    expect(slots.bytesWaiting).toBe(0);
    expect(await stale).toBeUndefined();
    // Other tenants' bodies that fit go, well past MAX_PASSES: nothing is owed to the withdrawn one.
    for (let i = 0; i <= MAX_PASSES + 1; i++) {
      const light = claim(`light-${i}`, 2);
      await light.done;
      light.release();
    }
    expect(granted).toHaveLength(MAX_PASSES + 3);
    first.release();
    expect(slots.bytesInFlight).toBe(0);
  });

  it('contract §4.3: a stale waiter the hub did not withdraw is dropped when a grant meets it, not passed and waited for', async () => {
    const slots = new AttemptSlots(256, 10);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const first = claim('first', 6);
    let gone = false;
    const stale = slots.acquire('gone', false, 50, () => gone);
    await settle();
    gone = true;
    for (let i = 0; i <= MAX_PASSES + 1; i++) {
      const light = claim(`light-${i}`, 2);
      await light.done;
      light.release();
    }
    expect(await stale).toBeUndefined();
    expect(slots.waiting).toBe(0);
    // A live heavy waiter keeps its rules: passed at most MAX_PASSES times, then waited for.
    const heavy = claim('heavy', 8);
    await passedThenWaitedFor(claim, granted, first, heavy, 'after');
  });

  it('contract §1: webhookInflightBudget 0 is accepted and sends one attempt at a time (every body is over it)', async () => {
    expect(resolveOptions({ webhookInflightBudget: 0 }).webhookInflightBudget).toBe(0);
    const slots = new AttemptSlots(256, 0);
    const granted: string[] = [];
    const claim = claimant(slots, granted);
    const a = claim('a', 1);
    const b = claim('b', 1);
    await settle();
    expect(granted).toEqual(['a']);
    a.release();
    await b.done;
    expect(granted).toEqual(['a', 'b']);
    b.release();
  });

  it('contract §1: webhookInflightBudget takes bytes or a size with a unit (default 64 MiB); a bad one is refused naming the setting', () => {
    expect(resolveOptions({}).webhookInflightBudget).toBe(64 * 1024 ** 2);
    expect(resolveOptions({ webhookInflightBudget: '8MiB' }).webhookInflightBudget).toBe(8 * 1024 ** 2);
    expect(parseCliSettings(['--webhook-inflight-budget', '2MiB'], { MOCK_WEBHOOK_INFLIGHT_BUDGET: '7' }).options).toMatchObject({
      webhookInflightBudget: 2 * 1024 ** 2,
    });
    expect(parseCliSettings([], { MOCK_WEBHOOK_INFLIGHT_BUDGET: '4096' }).options).toMatchObject({ webhookInflightBudget: 4096 });
    expect(() => parseCliSettings(['--webhook-inflight-budget', 'lots'], {})).toThrow(/^--webhook-inflight-budget: expected a byte size/);
    expect(() => resolveOptions({ webhookInflightBudget: '12 parsecs' })).toThrow(ConfigError);
  });
});
