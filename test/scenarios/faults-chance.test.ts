/**
 * Contract §4.2: `probability` on activations, drawn from the sandbox's seed: the same
 * seed and the same requests give the same choices, `times` counts only the requests acted on.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { activate, activeScenarios, journal } from '../support/scenarios.js';

type Client = ReturnType<typeof client>;

/** The statuses of `count` GET /v1/status of the free key, in order. */
async function statuses(c: Client, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await c.get('/v1/status').set(bearer(KEYS.free))).status);
  return seen;
}

async function patternOf(seed: number): Promise<number[]> {
  const c = client(makeApp({ seed }));
  await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.3 });
  return statuses(c, 60);
}

describe('probability (contract §4.2)', () => {
  it('contract §4.2: the same seed and the same requests give the same pattern on two sandboxes; it acts on some, not all', async () => {
    const first = await patternOf(7);
    expect(await patternOf(7)).toEqual(first);
    const failed = first.filter((status) => status === 500).length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(60);
    expect(first.every((status) => status === 500 || status === 200)).toBe(true);
    // Another seed, other choices.
    expect(await patternOf(8)).not.toEqual(first);
  });

  it('contract §4.2: reset replays the same choices (the chance stream restarts with the world)', async () => {
    const c = client(makeApp({ seed: 3 }));
    await activate(c, { name: 'server-error', probability: 0.5 });
    const first = await statuses(c, 30);
    await c.post('/__admin/reset');
    await activate(c, { name: 'server-error', probability: 0.5 });
    expect(await statuses(c, 30)).toEqual(first);
  });

  it('contract §4.2: times counts only the requests it acted on; the journal names the activation only on those', async () => {
    const c = client(makeApp());
    const active = await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.5, times: 3 });
    expect(active).toMatchObject({ probability: 0.5, times: 3, remaining: 3 });
    const seen = await statuses(c, 40);
    expect(seen.filter((status) => status === 500)).toHaveLength(3);
    expect(await activeScenarios(c)).toEqual([]);
    const entries = await journal(c, `?account_id=${ACCOUNTS.free}&limit=40`);
    for (const entry of entries) expect(entry.scenario_ids).toEqual(entry.status === 500 ? [active.id] : []);
  });

  it("a draw happens only for requests in the scope: other tenants' requests do not move the pattern", async () => {
    const quiet = client(makeApp());
    await activate(quiet, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.4 });
    const alone = await statuses(quiet, 30);
    const busy = client(makeApp());
    await activate(busy, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.4 });
    const mixed: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      // Out of scope: the paid key, and an unknown path.
      await busy.get('/v1/status').set(bearer(KEYS.paid));
      await busy.get('/v1/nowhere').set(bearer(KEYS.free));
      mixed.push((await busy.get('/v1/status').set(bearer(KEYS.free))).status);
    }
    expect(mixed).toEqual(alone);
  });

  it("contract §4.2: each activation draws from its own stream: tenant A's pattern is the same whatever tenant B does", async () => {
    const patternOfA = async (busyB: boolean) => {
      const c = client(makeApp({ seed: 5 }));
      // B's own flaky activation, made first, and B's traffic between A's requests.
      if (busyB) await activate(c, { name: 'server-error', account_id: ACCOUNTS.paid, probability: 0.5 });
      await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.4 });
      const seen: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        if (busyB) for (let j = 0; j < i % 3; j += 1) await c.get('/v1/status').set(bearer(KEYS.paid));
        seen.push((await c.get('/v1/status').set(bearer(KEYS.free))).status);
      }
      return seen;
    };
    const alone = await patternOfA(false);
    expect(alone).toContain(500);
    expect(alone).toContain(200);
    expect(await patternOfA(true)).toEqual(alone);
  });

  it("contract §4.2: an activation for every account draws for each account apart: B's requests do not shift A's pattern", async () => {
    const patternOfA = async (busyB: boolean) => {
      const c = client(makeApp({ seed: 5 }));
      await activate(c, { name: 'server-error', probability: 0.4 });
      const seen: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        if (busyB) await c.get('/v1/status').set(bearer(KEYS.paid));
        seen.push((await c.get('/v1/status').set(bearer(KEYS.free))).status);
      }
      return seen;
    };
    expect(await patternOfA(true)).toEqual(await patternOfA(false));
  });

  it('contract §4.1, §4.2: an account reset starts its draws over: the same requests after it give the same pattern', async () => {
    const c = client(makeApp({ seed: 9 }));
    await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.5 });
    const first = await statuses(c, 30);
    expect((await c.post(`/__admin/accounts/${ACCOUNTS.free}/reset`)).status).toBe(200);
    // The reset retired the scoped activation (contract §4.1); made again, it draws the same.
    await activate(c, { name: 'server-error', account_id: ACCOUNTS.free, probability: 0.5 });
    expect(await statuses(c, 30)).toEqual(first);
  });

  it('contract §4.1, §4.2: an account reset starts over its draws of an activation for every account, and only its own', async () => {
    const c = client(makeApp({ seed: 9 }));
    await activate(c, { name: 'server-error', probability: 0.5 });
    const first = await statuses(c, 30);
    const paid = async () => {
      const seen: number[] = [];
      for (let i = 0; i < 10; i += 1) seen.push((await c.get('/v1/status').set(bearer(KEYS.paid))).status);
      return seen;
    };
    const paidBefore = await paid();
    expect((await c.post(`/__admin/accounts/${ACCOUNTS.free}/reset`)).status).toBe(200);
    expect(await statuses(c, 30)).toEqual(first);
    // The paid account's stream goes on where it was: its next ten are not its first ten again.
    const fresh = client(makeApp({ seed: 9 }));
    await activate(fresh, { name: 'server-error', probability: 0.5 });
    const paidTwenty: number[] = [];
    for (let i = 0; i < 20; i += 1) paidTwenty.push((await fresh.get('/v1/status').set(bearer(KEYS.paid))).status);
    expect(paidTwenty.slice(0, 10)).toEqual(paidBefore);
    expect(await paid()).toEqual(paidTwenty.slice(10));
  });

  it('drawing never moves the id streams: records created after drawn requests get the same ids', async () => {
    const createdAfter = async (withChance: boolean) => {
      const c = client(makeApp());
      if (withChance) await activate(c, { name: 'slow-responses', operation_id: 'getStatus', probability: 0.5, params: { delay_ms: 0 } });
      await statuses(c, 10);
      return (await c.post('/v1/auth/keys').set(bearer(KEYS.free)).send({})).body.id as string;
    };
    expect(await createdAfter(true)).toBe(await createdAfter(false));
  });

  it('contract §4.2: probability 0 never acts, 1 always; outside 0–1 or not a number is 422 naming it', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'server-error', probability: 0 });
    expect(await statuses(c, 5)).toEqual([200, 200, 200, 200, 200]);
    for (const probability of [-0.1, 1.5, '0.5']) {
      const res = await c.post('/__admin/scenarios').send({ name: 'server-error', probability });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', param: 'probability' });
    }
    await c.delete('/__admin/scenarios');
    await activate(c, { name: 'server-error', probability: 1 });
    expect(await statuses(c, 3)).toEqual([500, 500, 500]);
  });

  it('contract §4.2: --scenario takes probability=…; a bad one stops start-up naming the setting', async () => {
    const booted = client(makeApp({ seed: 7, scenarios: [`server-error;account_id=${ACCOUNTS.free};probability=0.3`] }));
    expect((await activeScenarios(booted))[0]).toMatchObject({ probability: 0.3 });
    // The same activation as through the admin API: the same pattern.
    expect(await statuses(booted, 60)).toEqual(await patternOf(7));
    for (const bad of ['2', '-1', 'often', '1e-1', '']) {
      expect(() => makeApp({ scenarios: [`server-error;probability=${bad}`] })).toThrow(ConfigError);
      expect(() => makeApp({ scenarios: [`server-error;probability=${bad}`] })).toThrow(/probability/);
    }
  });

  it('contract §4.2: probability is not a param name a scenario file may declare', async () => {
    const { ScenarioDefinition } = await import('../../src/scenarios/definition.js');
    const raw = { description: 'x', params: { probability: { type: 'number', default: 1 } }, rules: [{ effect: { delay_ms: 0 } }] };
    expect(() => ScenarioDefinition.parse('x', 'x.json', raw)).toThrow(/probability.*not a scope key|invalid name 'probability'/);
  });
});
