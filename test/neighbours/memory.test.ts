/**
 * The memory goal of the rule "no tenant can sink the others": whatever one tenant sends, what the
 * sandbox keeps of it is bounded in bytes. Against the built CLI, one tenant sends a fifth of a
 * gigabyte of 1 MB bodies in the shapes that used to be kept whole (the request journal with its
 * answers, idempotency records of distinct keys, the webhook delivery log). The process's peak RSS
 * (VmHWM) stays under 512 MiB, and every admin listing answers under 32 MiB whatever its `limit`.
 * Bytes, not time: no bound here depends on the machine's speed. Receivers' answers: receivers.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hostilePatchBody, peakRssBytes, pool, startHostileReceiver, type HostileReceiver } from '../../bench/hostile.js';
import type { RunningCli } from '../support/cli.js';
import {
  call,
  expectListingsBounded,
  expectNeighbourServed,
  HOSTILE_ACCOUNT,
  HOSTILE_INBOX,
  HOSTILE_KEY,
  RSS_BOUND,
  startSandbox,
} from './support.js';

/** 200 bodies of ~1 MB: a fifth of the goal's gigabyte, enough that keeping them whole breaks the bound several times over. */
const PATCHES = 200;

let sandbox: RunningCli | undefined;
let receiver: HostileReceiver | undefined;
afterEach(async () => {
  sandbox?.child.kill('SIGKILL');
  sandbox = undefined;
  await receiver?.close();
  receiver = undefined;
});

describe("one tenant's megabyte bodies are kept within byte budgets: peak RSS < 512 MiB, every admin listing < 32 MiB (journal, idempotency records, delivery log)", () => {
  it('200 PATCHes of 1 MB, each with its own Idempotency-Key, journalled and delivered to a webhook endpoint, leave the process under 512 MiB', async () => {
    sandbox = await startSandbox();
    const base = sandbox.url;
    const pid = sandbox.child.pid!;
    receiver = await startHostileReceiver(() => ({ kind: 'status', status: 204 }));
    const endpoint = await call(base, 'POST', '/__admin/webhook_endpoints', {
      account_id: HOSTILE_ACCOUNT,
      url: receiver.url,
      events: ['inbox.updated'],
    });
    expect(endpoint.status).toBe(201);
    const body = hostilePatchBody();
    const statuses: number[] = [];
    // Two in flight; the sending stops as soon as the bound is broken (the test has failed by then).
    await pool(
      PATCHES,
      2,
      async (i) => {
        const res = await fetch(`${base}/v1/email/inboxes/${HOSTILE_INBOX}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${HOSTILE_KEY}`, 'content-type': 'application/json', 'idempotency-key': `hostile-${i}` },
          body,
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      },
      () => !(peakRssBytes(pid) < RSS_BOUND),
    );
    expect(peakRssBytes(pid)).toBeLessThan(RSS_BOUND);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(PATCHES);
    await expectListingsBounded(base);
    expect(peakRssBytes(pid)).toBeLessThan(RSS_BOUND);
    await expectNeighbourServed(base);
  });

  it('40 PATCHes of 1 MB make no admin listing of 32 MiB or more', async () => {
    // Few enough bodies that memory alone does not fail first: this is the listings' own bound.
    sandbox = await startSandbox();
    const base = sandbox.url;
    receiver = await startHostileReceiver(() => ({ kind: 'status', status: 204 }));
    await call(base, 'POST', '/__admin/webhook_endpoints', { account_id: HOSTILE_ACCOUNT, url: receiver.url, events: ['inbox.updated'] });
    const body = hostilePatchBody();
    await pool(40, 2, async () => {
      const res = await fetch(`${base}/v1/email/inboxes/${HOSTILE_INBOX}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${HOSTILE_KEY}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    });
    await expectListingsBounded(base);
  });
});
