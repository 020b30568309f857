/**
 * Contract §3.5: an activation narrowed to an account, an API key and/or an operation acts on
 * exactly the requests in that scope, and never on another tenant's, key's or operation's.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { isWrite } from '../../src/operations/types.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { ACCOUNTS, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { activate, journal, send } from '../support/scenarios.js';

const SCOPE = { account_id: ACCOUNTS.free, api_key_id: 'key_free_default', operation_id: 'getStatus' } as const;
type ScopeKey = keyof typeof SCOPE;

/** Every subset of the three scope keys: 8 combinations, from unscoped to fully narrowed. */
const COMBINATIONS: ScopeKey[][] = [
  [],
  ['account_id'],
  ['api_key_id'],
  ['operation_id'],
  ['account_id', 'api_key_id'],
  ['account_id', 'operation_id'],
  ['api_key_id', 'operation_id'],
  ['account_id', 'api_key_id', 'operation_id'],
];

/** Callers from two tenants, two keys of one of them, and two operations. */
const CALLERS = [
  { token: KEYS.free, account_id: ACCOUNTS.free, api_key_id: 'key_free_default' },
  { token: KEYS.freeReadOnly, account_id: ACCOUNTS.free, api_key_id: 'key_free_read_only' },
  { token: KEYS.paid, account_id: ACCOUNTS.paid, api_key_id: 'key_paid_default' },
];
const PROBES = [
  { operation_id: 'getStatus', path: '/v1/status' },
  { operation_id: 'listApiKeys', path: '/v1/auth/keys' },
];

describe('scope combinations (contract §3.5)', () => {
  it.each(COMBINATIONS.map((keys) => [keys.join(' + ') || 'unscoped', keys] as const))(
    'contract §3.5: scoped by %s, the scenario acts on exactly the requests in scope',
    async (_, keys) => {
      const c = client(makeApp());
      const scope = Object.fromEntries(keys.map((key) => [key, SCOPE[key]]));
      const active = await activate(c, { name: 'server-error', ...scope });
      expect(active).toMatchObject({ account_id: null, api_key_id: null, operation_id: null, ...scope, remaining: null });
      for (const caller of CALLERS) {
        for (const probe of PROBES) {
          const facts = { account_id: caller.account_id, api_key_id: caller.api_key_id, operation_id: probe.operation_id };
          const inScope = keys.every((key) => facts[key] === SCOPE[key]);
          const res = await c.get(probe.path).set('Authorization', `Bearer ${caller.token}`);
          if (inScope) expectError(res, 'internal_error', { message: MESSAGES.internal });
          else expect(res.status, `${caller.api_key_id} ${probe.operation_id}`).toBe(200);
        }
      }
      const entries = await journal(c);
      expect(entries).toHaveLength(CALLERS.length * PROBES.length);
      for (const entry of entries) {
        const inScope = keys.every((key) => entry[key] === SCOPE[key]);
        expect(entry.scenario_ids).toEqual(inScope ? [active.id] : []);
      }
    },
  );

  it("contract §3.5: a scenario on a worker's own new account never touches the fixture tenants", async () => {
    const c = client(makeApp());
    const created = await c.post('/__admin/accounts').send({ plan: 'free' });
    await activate(c, { name: 'rate-limited', account_id: created.body.account.id });
    expect((await c.get('/v1/status').set('Authorization', `Bearer ${created.body.api_key.token}`)).status).toBe(429);
    for (const token of Object.values(KEYS)) expect((await c.get('/v1/status').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });
});

describe('every operation (contract §3.5), over the whole operation table', () => {
  it('contract §3.5: scoped to one operation, the scenario answers that operation and no other', async () => {
    const app = makeApp();
    const c = client(app);
    for (const target of OPERATIONS) {
      const active = await activate(c, { name: 'server-error', operation_id: target.operationId });
      for (const op of OPERATIONS) {
        const res = await send(c, op, KEYS.free);
        if (op === target) expectError(res, 'internal_error', { message: MESSAGES.internal });
        else expect(res.status, `${op.operationId} while ${target.operationId} is scoped`).not.toBe(500);
      }
      const entries = await journal(c, `?limit=${OPERATIONS.length}`);
      expect(entries.filter((e) => e.scenario_ids.length > 0).map((e) => [e.operation_id, e.scenario_ids])).toEqual([
        [target.operationId, [active.id]],
      ]);
      await c.delete('/__admin/scenarios');
      await c.delete('/__admin/requests');
    }
  });

  it('contract §3.5: every operation honours `Prefer: scenario=server-error` for that one request', async () => {
    const c = client(makeApp());
    for (const op of OPERATIONS) {
      const res = await send(c, op, KEYS.free, { Prefer: 'scenario=server-error' });
      expectError(res, 'internal_error', { message: MESSAGES.internal });
      expect(res.headers['preference-applied']).toBe('scenario=server-error');
      expect((await send(c, op, KEYS.free)).status, op.operationId).not.toBe(500);
    }
  });

  it('contract §3.5: every operation gets each shipped answer: a 429, an expired key, the deprecation headers', async () => {
    const c = client(makeApp());
    for (const op of OPERATIONS) {
      const limited = await send(c, op, KEYS.paid, { Prefer: 'scenario=rate-limited' });
      expectError(limited, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'paid' } });
      expectError(await send(c, op, KEYS.paid, { Prefer: 'scenario=keys-expired' }), 'authentication_required', {
        message: MESSAGES.authExpired,
      });
      const deprecated = await send(c, op, KEYS.paid, { Prefer: 'scenario=deprecated-operations' });
      expect([deprecated.headers.deprecation, deprecated.headers.link], op.operationId).toEqual([
        '@1767225600',
        '<https://docs.example.com/deprecations>; rel="deprecation"',
      ]);
    }
  });

  it('§7.3.5: for every write operation, a scenario 500 is not remembered under its Idempotency-Key', async () => {
    const c = client(makeApp());
    for (const op of OPERATIONS.filter(isWrite)) {
      const key = { 'Idempotency-Key': `retry-${op.operationId}` };
      expectError(await send(c, op, KEYS.free, { ...key, Prefer: 'scenario=server-error' }), 'internal_error', {
        message: MESSAGES.internal,
      });
      const retry = await send(c, op, KEYS.free, key);
      expect(retry.status, op.operationId).not.toBe(500);
      expect(retry.headers['idempotent-replayed'], op.operationId).toBeUndefined();
    }
  });

  it('contract §3.5: activating with an operation id that does not exist is refused with 422 listing the known ones', async () => {
    const c = client(makeApp());
    const res = await c.post('/__admin/scenarios').send({ name: 'server-error', operation_id: 'listWidgets' });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'operation_id',
      errors: {
        operation_id: [`unknown operation 'listWidgets' (known operations: ${OPERATIONS.map((op) => op.operationId).join(', ')})`],
      },
    });
  });
});
