/**
 * The memory goal for webhook receivers' answers (contract §4.3; the rule "no tenant can sink the
 * others"): a delivery reads at most a bounded part of what a receiver answers and never inflates
 * it, so a receiver streaming a gigabyte or answering a gzip bomb leaves the sandbox's peak RSS
 * (VmHWM) under 512 MiB, and the receiver's prompt status is the attempt's answer. Against the
 * built CLI; bytes and statuses, not time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { gzipBomb, peakRssBytes, startHostileReceiver, type HostileAnswer, type HostileReceiver } from '../../bench/hostile.js';
import type { RunningCli } from '../support/cli.js';
import {
  call,
  expectListingsBounded,
  expectNeighbourServed,
  HOSTILE_ACCOUNT,
  HOSTILE_INBOX,
  HOSTILE_KEY,
  MiB,
  RSS_BOUND,
  startSandbox,
} from './support.js';

let sandbox: RunningCli | undefined;
let receiver: HostileReceiver | undefined;
afterEach(async () => {
  sandbox?.child.kill('SIGKILL');
  sandbox = undefined;
  await receiver?.close();
  receiver = undefined;
});

interface Delivery {
  status: string;
  attempts: Array<{ status_code: number | null; error: string | null }>;
}

/** Waits until the hostile account has `count` deliveries, the newest attempted (bounded by the test's timeout). */
async function attempted(base: string, count: number): Promise<Delivery> {
  for (;;) {
    const list = await call<{ data: Delivery[] }>(base, 'GET', `/__admin/webhook_deliveries?account_id=${HOSTILE_ACCOUNT}&limit=${count}`);
    const newest = list.json.data[0];
    if (list.json.data.length >= count && newest && newest.attempts.length > 0) return newest;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A sandbox whose hostile account's one delivery meets `answer`, once that delivery has been attempted. */
async function hostileDelivery(answer: HostileAnswer): Promise<{ base: string; pid: number; attempt: Delivery['attempts'][number] }> {
  sandbox = await startSandbox();
  const base = sandbox.url;
  receiver = await startHostileReceiver(() => answer);
  await call(base, 'POST', '/__admin/webhook_endpoints', { account_id: HOSTILE_ACCOUNT, url: receiver.url, events: ['inbox.updated'] });
  const patch = await call(
    base,
    'PATCH',
    `/v1/email/inboxes/${HOSTILE_INBOX}`,
    { display_name: 'Hostile' },
    { authorization: `Bearer ${HOSTILE_KEY}` },
  );
  expect(patch.status).toBe(200);
  const delivery = await attempted(base, 1);
  return { base, pid: sandbox.child.pid!, attempt: delivery.attempts[0]! };
}

describe("a receiver's answer is read within a byte budget and never inflated (contract §4.3): peak RSS < 512 MiB", () => {
  it('a receiver streaming a 1 GiB answer gets to send less than 64 MiB of it, and the process stays under 512 MiB', async () => {
    // Bytes, not RSS alone: an attempt ends after 10 s, and in 10 s a loaded machine reads less than
    // 512 MiB; what the receiver managed to send is what the sandbox read (plus socket buffers). The
    // receiver's 200 came at once: it is the attempt's answer (contract §4.3), the body is not awaited.
    const { base, pid, attempt } = await hostileDelivery({ kind: 'stream', bytes: 2 ** 30 });
    expect(attempt).toMatchObject({ status_code: 200, error: null });
    expect(receiver!.bytesSent).toBeLessThan(64 * MiB);
    expect(peakRssBytes(pid)).toBeLessThan(RSS_BOUND);
    await expectListingsBounded(base);
    await expectNeighbourServed(base);
  });

  it('a receiver answering 1 MB of gzip that inflates to 1 GiB leaves the process under 512 MiB', async () => {
    // Inflating it all used to take RSS past 1 GiB, or, on a loaded machine, past the attempt's 10 s:
    // the prompt 200 is the answer either way, so the attempt records it.
    const { base, pid, attempt } = await hostileDelivery({ kind: 'gzip', body: gzipBomb(2 ** 30) });
    expect(attempt).toMatchObject({ status_code: 200, error: null });
    expect(peakRssBytes(pid)).toBeLessThan(RSS_BOUND);
    await expectListingsBounded(base);
    await expectNeighbourServed(base);
  });
});
