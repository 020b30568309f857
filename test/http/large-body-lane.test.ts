/**
 * An account's large-body requests take turns (src/http/large-body-lane.ts), so one tenant sending
 * several 1 MB bodies at once never queues them all ahead of another tenant's request; small bodies
 * and other accounts never wait. Checked as an order of events, not as a time.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxContext } from '../../src/http/context.js';
import { LARGE_BODY_BYTES, largeBodyLane } from '../../src/http/large-body-lane.js';

function request(accountId: string, bytes: number): SandboxContext {
  return {
    req: { headers: { 'content-length': String(bytes) } },
    state: { caller: { kind: 'api_key', account: { id: accountId } } },
  } as unknown as SandboxContext;
}

/** A `next` that records when it starts and ends only when told. */
function held(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    next: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    release,
  };
}

/** A few turns of the event loop (the lane yields one before each request): an order, not a time. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('large bodies take turns per account', () => {
  it('runs one large-body request of an account at a time, in arrival order', async () => {
    const lane = largeBodyLane();
    const log: string[] = [];
    const [a1, a2, a3] = ['a1', 'a2', 'a3'].map((name) => held(log, name));
    const runs = [a1, a2, a3].map((h) => lane(request('acct_a', LARGE_BODY_BYTES + 1), h!.next));
    await settle();
    expect(log).toEqual(['start a1']);
    a1!.release();
    await settle();
    expect(log).toEqual(['start a1', 'end a1', 'start a2']);
    a2!.release();
    a3!.release();
    await Promise.all(runs);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('never holds another account, a small body, or a request without a key', async () => {
    const lane = largeBodyLane();
    const log: string[] = [];
    const a = held(log, 'a');
    const b = held(log, 'b');
    const small = held(log, 'small');
    const anonymous = held(log, 'anonymous');
    const runs = [
      lane(request('acct_a', LARGE_BODY_BYTES + 1), a.next),
      lane(request('acct_b', LARGE_BODY_BYTES + 1), b.next),
      lane(request('acct_a', LARGE_BODY_BYTES), small.next),
      lane({ req: { headers: { 'content-length': '999999' } }, state: {} } as unknown as SandboxContext, anonymous.next),
    ];
    await settle();
    expect(log.sort()).toEqual(['start a', 'start anonymous', 'start b', 'start small']);
    [a, b, small, anonymous].forEach((h) => h.release());
    await Promise.all(runs);
  });

  it('lets the next request in when the one ahead fails', async () => {
    const lane = largeBodyLane();
    const log: string[] = [];
    const failing = lane(request('acct_a', LARGE_BODY_BYTES + 1), () => Promise.reject(new Error('refused')));
    const after = held(log, 'after');
    const run = lane(request('acct_a', LARGE_BODY_BYTES + 1), after.next);
    await expect(failing).rejects.toThrow('refused');
    await settle();
    expect(log).toEqual(['start after']);
    after.release();
    await run;
  });
});
