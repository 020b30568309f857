/**
 * Outgoing webhook attempts are capped sandbox-wide (`webhookConcurrency`), the slots handed out
 * round-robin between accounts, and an attempt's deadline runs from when it gets its slot
 * (docs/webhooks.md "Isolation"). Counts and order only: no real-time budget is asserted.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';
import { parseCliSettings } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { AttemptSlots } from '../../src/webhooks/attempt-slots.js';
import { ACCOUNTS, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

/** A receiver that holds every request until the test releases it, counting those it holds at once. */
interface HoldingReceiver {
  url: string;
  arrived: number;
  /** The paths of the requests, in arrival order. */
  paths: string[];
  held: number;
  mostHeld: number;
  /** Resolves once `count` requests in all have arrived. */
  arrivals(count: number): Promise<void>;
  /** Answers the oldest held request 204. */
  releaseOne(): void;
  close(): Promise<void>;
}

const holders: HoldingReceiver[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((h) => h.close()));
});

async function holdingReceiver(): Promise<HoldingReceiver> {
  const queue: ServerResponse[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const state = { arrived: 0, mostHeld: 0 };
  const paths: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.arrived += 1;
      paths.push(req.url ?? '');
      queue.push(res);
      state.mostHeld = Math.max(state.mostHeld, queue.length);
      for (const waiter of [...waiters]) {
        if (state.arrived >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const holder: HoldingReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    get arrived() {
      return state.arrived;
    },
    paths,
    get held() {
      return queue.length;
    },
    get mostHeld() {
      return state.mostHeld;
    },
    arrivals: (count) => (state.arrived >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    releaseOne: () => {
      queue.shift()?.writeHead(204).end();
    },
    close: async () => {
      for (const res of queue.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  holders.push(holder);
  return holder;
}

/** `count` new accounts, each with one endpoint at `url`: their ids. */
async function accountsWithEndpoints(s: ReturnType<typeof sandbox>, url: string, count: number): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
    await s.endpoint(url, {}, id);
    accounts.push(id);
  }
  return accounts;
}

describe('webhook attempts are capped sandbox-wide and shared fairly between accounts', () => {
  it('contract §4.3: with webhookConcurrency 2, six accounts falling due at once never have more than 2 attempts in flight, and all are sent', async () => {
    const s = sandbox({ webhookConcurrency: 2, webhookTimeout: 600_000 });
    const holder = await holdingReceiver();
    const accounts = await accountsWithEndpoints(s, holder.url, 6);
    for (const id of accounts) expect((await s.trigger('inbox.updated', id)).status).toBe(201);
    await holder.arrivals(2);
    for (let sent = 2; sent < 6; sent++) {
      holder.releaseOne();
      await holder.arrivals(sent + 1);
      expect(holder.held).toBeLessThanOrEqual(2);
    }
    while (holder.held > 0) holder.releaseOne();
    await s.advance(0);
    expect(holder.arrived).toBe(6);
    expect(holder.mostHeld).toBe(2);
    const statuses = await Promise.all(accounts.map(async (id) => (await s.deliveries({ account_id: id }))[0]!.status));
    expect(statuses).toEqual(Array(6).fill('succeeded'));
  });

  it('contract §4.3: the bodies in flight are bounded in bytes: with webhookInflightBudget under two bodies, six accounts falling due at once send one at a time, and all are sent', async () => {
    // 256 slots, but room in bytes for one body: each attempt goes alone (a body over the budget goes once nothing else is in flight).
    const s = sandbox({ webhookInflightBudget: 1, webhookTimeout: 600_000 });
    const holder = await holdingReceiver();
    const accounts = await accountsWithEndpoints(s, holder.url, 6);
    for (const id of accounts) expect((await s.trigger('inbox.updated', id)).status).toBe(201);
    for (let sent = 1; sent <= 6; sent++) {
      await holder.arrivals(sent);
      expect(holder.held).toBe(1);
      holder.releaseOne();
    }
    await s.advance(0);
    expect(holder.arrived).toBe(6);
    expect(holder.mostHeld).toBe(1);
    const statuses = await Promise.all(accounts.map(async (id) => (await s.deliveries({ account_id: id }))[0]!.status));
    expect(statuses).toEqual(Array(6).fill('succeeded'));
  });

  it("contract §4.3: one account's fan-out of 500 deliveries never starves another's: with one slot, the other's is sent before the 500th", async () => {
    const s = sandbox({ webhookConcurrency: 1 });
    const busy = await receiver();
    const other = await receiver();
    for (let i = 0; i < 100; i++) await s.endpoint(`${busy.url}/${i}`);
    for (let i = 0; i < 5; i++) expect((await s.trigger('inbox.updated')).status).toBe(201);
    await busy.received(1);
    await s.endpoint(other.url, {}, ACCOUNTS.paid);
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    await other.received(1);
    expect(busy.arrivals.length).toBeLessThan(500);
    await s.advance(0);
    expect(busy.arrivals).toHaveLength(500);
  });

  it('contract §4.3: waiting for a slot does not count toward the deadline: an attempt queued behind timed-out ones still succeeds', async () => {
    // Two accounts whose receivers never answer hold the one slot a deadline each; the third
    // account's attempt waits for both, longer than its own deadline, and then succeeds.
    const s = sandbox({ webhookConcurrency: 1, webhookTimeout: 1500 });
    const hanging = await receiver(() => 'hang');
    const answering = await receiver();
    const stuck: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
      await s.endpoint(hanging.url, {}, id);
      stuck.push(id);
    }
    await s.endpoint(answering.url, {}, ACCOUNTS.paid);
    for (const id of stuck) await s.trigger('inbox.updated', id);
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    await answering.received(1);
    await s.advance(0);
    expect(hanging.arrivals).toHaveLength(2);
    for (const id of stuck) {
      const [delivery] = await s.deliveries({ account_id: id });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 1500 ms' });
    }
    const [served] = await s.deliveries({ account_id: ACCOUNTS.paid });
    expect(served).toMatchObject({ status: 'succeeded' });
  });

  it('contract §4.3: an attempt is recorded at the instant its clock read when it got its slot, and its retry counts from then', async () => {
    // The one slot is held by another account's attempt; meanwhile the waiting account's own clock
    // is moved a minute on. Its attempt goes out then: recorded at +60 s, its 5 s retry at +65 s,
    // so the advance of 60 s makes one attempt, not a retry at once.
    const s = sandbox({ webhookConcurrency: 1, webhookTimeout: 600_000 });
    const holder = await holdingReceiver();
    const failing = await receiver(() => 500);
    const other = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
    await s.endpoint(holder.url, {}, other);
    await s.endpoint(failing.url, {}, ACCOUNTS.paid);
    await s.trigger('inbox.updated', other);
    await holder.arrivals(1);
    const event = (await s.trigger('inbox.updated', ACCOUNTS.paid)).body as { created_at: string };
    const advanced = s.api.post(`/__admin/accounts/${ACCOUNTS.paid}/clock/advance`).send({ seconds: 60 });
    const answered = advanced.then((res) => res.status);
    // Its clock has moved; its clock call waits on the attempt, which waits for the slot.
    const sixtyOn = new Date(Date.parse(event.created_at) + 60_000).toISOString();
    const clockNow = async () => (await s.api.get(`/__admin/accounts/${ACCOUNTS.paid}/clock`)).body.now as string;
    while (Date.parse(await clockNow()) !== Date.parse(sixtyOn)) await new Promise((resolve) => setImmediate(resolve));
    expect(failing.arrivals).toHaveLength(0);
    holder.releaseOne();
    expect(await answered).toBe(200);
    const [delivery] = await s.deliveries({ account_id: ACCOUNTS.paid });
    const t0 = Date.parse(event.created_at);
    expect(delivery!.attempts.map((a) => Date.parse(a.at) - t0)).toEqual([60_000]);
    expect(Date.parse(delivery!.next_attempt_at!) - t0).toBe(65_000);
  });

  it("contract §4.3: an account whose clock call waits on its deliveries gets the next free slot, before other tenants' queued attempts", async () => {
    // One slot, held by a tenant whose receiver holds every request; three more such tenants queue
    // behind it, then the account. Its own-clock advance now waits on its attempt: the slot freed
    // next is its, not the three others' (round-robin would make it wait for all of them).
    const s = sandbox({ webhookConcurrency: 1, webhookTimeout: 600_000 });
    const holder = await holdingReceiver();
    for (let i = 0; i < 4; i++) {
      const id = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
      await s.endpoint(`${holder.url}/silent-${i}`, {}, id);
      await s.trigger('inbox.updated', id);
    }
    await holder.arrivals(1);
    await s.endpoint(`${holder.url}/waiting`, {}, ACCOUNTS.paid);
    const event = (await s.trigger('inbox.updated', ACCOUNTS.paid)).body as { created_at: string };
    const answered = s.api
      .post(`/__admin/accounts/${ACCOUNTS.paid}/clock/advance`)
      .send({ seconds: 1 })
      .then((res) => res.status);
    const clockNow = async () => Date.parse((await s.api.get(`/__admin/accounts/${ACCOUNTS.paid}/clock`)).body.now as string);
    while ((await clockNow()) !== Date.parse(event.created_at) + 1000) await new Promise((resolve) => setImmediate(resolve));
    holder.releaseOne();
    await holder.arrivals(2);
    expect(holder.paths).toEqual(['/hooks/silent-0', '/hooks/waiting']);
    holder.releaseOne();
    expect(await answered).toBe(200);
    for (let sent = 2; sent < 5; sent++) {
      await holder.arrivals(sent + 1);
      holder.releaseOne();
    }
    expect(holder.paths.slice(2)).toEqual(['/hooks/silent-1', '/hooks/silent-2', '/hooks/silent-3']);
  });
});

describe('an attempt waiting for a slot whose account is reset (contract §4.1, §4.3)', () => {
  it('contract §4.3: leaves the wait at once, holds no bytes, blocks no other tenant and is never sent', async () => {
    const s = sandbox({ webhookConcurrency: 1, webhookTimeout: 600_000 });
    const hub = s.app.sandbox.world.webhooks;
    const holder = await holdingReceiver();
    const resetOne = await receiver(() => 204);
    const other = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
    const third = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
    await s.endpoint(`${holder.url}/other`, {}, other);
    await s.endpoint(`${holder.url}/third`, {}, third);
    await s.endpoint(resetOne.url, {}, ACCOUNTS.paid);
    await s.trigger('inbox.updated', other);
    await holder.arrivals(1);
    // The one slot is held: the account's attempt waits for it, with its body.
    await s.trigger('inbox.updated', ACCOUNTS.paid);
    while (hub.attemptsWaiting.attempts === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(hub.attemptsWaiting.bytes).toBeGreaterThan(0);
    expect((await s.api.post(`/__admin/accounts/${ACCOUNTS.paid}/reset`)).status).toBe(200);
    expect(hub.attemptsWaiting).toEqual({ attempts: 0, bytes: 0 });
    // Another tenant's attempt takes the slot freed next; nothing is ever sent for the reset one.
    await s.trigger('inbox.updated', third);
    holder.releaseOne();
    await holder.arrivals(2);
    expect(holder.paths).toEqual(['/hooks/other', '/hooks/third']);
    holder.releaseOne();
    await s.advance(0);
    expect(resetOne.arrivals).toHaveLength(0);
    expect(await s.deliveries({ account_id: ACCOUNTS.paid })).toEqual([]);
  });
});

describe('many attempts in flight', () => {
  it('more than ten attempts in flight at once print no listener-leak warning on stderr', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const s = sandbox({ webhookTimeout: 600_000 });
      const holder = await holdingReceiver();
      const accounts: string[] = [];
      for (let i = 0; i < 12; i++) {
        const id = (await s.api.post('/__admin/accounts').send({})).body.account.id as string;
        await s.endpoint(holder.url, {}, id);
        accounts.push(id);
      }
      for (const id of accounts) await s.trigger('inbox.updated', id);
      await holder.arrivals(12);
      expect(holder.held).toBe(12);
      while (holder.held > 0) holder.releaseOne();
      await s.advance(0);
      // A warning is emitted on the next tick of the emitting code: one more turn lets it arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('attempt slots', () => {
  it('hand freed slots round-robin between the accounts waiting, each account its own line oldest first', async () => {
    const slots = new AttemptSlots(1);
    const releases = [(await slots.acquire('a'))!];
    const order: string[] = [];
    const wait = (label: string, account: string) =>
      void slots.acquire(account).then((release) => {
        order.push(label);
        releases.push(release!);
      });
    wait('a1', 'a');
    wait('a2', 'a');
    wait('a3', 'a');
    wait('b1', 'b');
    expect(slots.waiting).toBe(4);
    for (let i = 0; i < 4; i++) {
      releases[i]!();
      await Promise.resolve();
    }
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('give a freed slot to an account a clock call waits on first, whether it came hurried or was hurried while waiting', async () => {
    const slots = new AttemptSlots(1);
    let held = (await slots.acquire('a'))!;
    const order: string[] = [];
    const wait = (label: string, account: string, hurried = false) =>
      void slots.acquire(account, hurried).then((release) => {
        order.push(label);
        held = release!;
      });
    wait('b', 'b');
    wait('c', 'c');
    wait('d', 'd');
    wait('e', 'e', true);
    slots.hurry('d');
    slots.hurry('nobody');
    for (let i = 0; i < 4; i++) {
      held();
      await Promise.resolve();
    }
    expect(order).toEqual(['e', 'd', 'b', 'c']);
  });

  it('keep a sixteenth of the slots for accounts a clock call waits on: other accounts hold at most the rest', async () => {
    const slots = new AttemptSlots(32);
    expect(slots.reserve).toBe(2);
    const others = await Promise.all(Array.from({ length: 30 }, (_, i) => slots.acquire(`silent_${i}`)));
    expect(others.every((release) => release !== undefined)).toBe(true);
    let late = false;
    void slots.acquire('late').then(() => (late = true));
    const hurried = await slots.acquire('waiting', true);
    await Promise.resolve();
    expect(hurried).toBeTypeOf('function');
    expect(late).toBe(false);
    others[0]!();
    await Promise.resolve();
    expect(late).toBe(true);
    expect(new AttemptSlots(15).reserve).toBe(0);
  });

  it('tell whoever waits no once closed, and nobody after', async () => {
    const slots = new AttemptSlots(1);
    expect(await slots.acquire('a')).toBeTypeOf('function');
    const waiting = slots.acquire('b');
    slots.close();
    expect(await waiting).toBeUndefined();
    expect(await slots.acquire('c')).toBeUndefined();
  });

  it('--webhook-concurrency and MOCK_WEBHOOK_CONCURRENCY set the cap (1 to 512), the flag first; a bad value names the setting', () => {
    expect(parseCliSettings(['--webhook-concurrency', '8'], {}).options.webhookConcurrency).toBe(8);
    expect(parseCliSettings([], { MOCK_WEBHOOK_CONCURRENCY: '16' }).options.webhookConcurrency).toBe(16);
    expect(parseCliSettings(['--webhook-concurrency', '8'], { MOCK_WEBHOOK_CONCURRENCY: '16' }).options.webhookConcurrency).toBe(8);
    for (const bad of ['0', '513', '1.5', 'many']) {
      expect(() => parseCliSettings(['--webhook-concurrency', bad], {})).toThrow(/^--webhook-concurrency: /);
    }
    expect(() => resolveOptions({ webhookConcurrency: 0 })).toThrow(ConfigError);
  });
});
