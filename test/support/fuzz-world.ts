/**
 * A sandbox with two fresh tenants for property tests: the caller (a paid account with a full and a
 * read-only key) and a bystander. `run(request)` sends one generated request as the caller and
 * asserts the invariants that must hold whatever the input:
 * - never a 5xx; every error in the envelope (the response contract checks the rest);
 * - a request the declaration refuses gets a 4xx;
 * - the bystander's state never changes (GET /__admin/accounts/{id});
 * - a rejected request, or any read, leaves the caller's state exactly as it was (no partial write);
 * - credits balance (balance + used constant, never negative, used = the jobs' credits_used);
 * - counters agree with what they count (an experience's active_grants_count) and no record points
 *   at a record that is gone;
 * - the rate-limit counter of each credential drops by exactly one per request;
 * - a list page never holds more items than its limit.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { isWrite, type OperationDef } from '../../src/operations/types.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { DEFAULT_PAGE_LIMIT } from '../../src/operations/schemas.js';
import { bearer, client, makeApp } from './harness.js';
import { IdPool, OperationRequests, type Credential, type GeneratedRequest } from './requests.js';

type Snapshot = { text: string; value: { account: Record<string, unknown>; state: Record<string, unknown> } };
type Credits = { balance: number; used: number };

/** Quotas high enough that a property run never meets a 429; counting is still checked exactly. */
export const FUZZ_RATE_LIMIT = 'free=1000000,paid=1000000';

export class FuzzWorld {
  private readonly sent = new Map<Credential, number>();
  private readonly creditTotals = new Map<string, number>();

  private constructor(
    readonly app: MockApp,
    readonly caller: { accountId: string; token: string; readOnlyToken: string },
    readonly bystanderId: string,
    private callerState: Snapshot,
    private bystanderState: Snapshot,
  ) {
    for (const snapshot of [callerState, bystanderState]) {
      const credits = snapshot.value.state.credits as Credits;
      this.creditTotals.set(String(snapshot.value.account.id), credits.balance + credits.used);
    }
  }

  static async create(): Promise<FuzzWorld> {
    const app = makeApp({ rateLimit: FUZZ_RATE_LIMIT });
    const admin = client(app);
    const made = await admin.post('/__admin/accounts').send({ plan: 'paid' });
    const other = await admin.post('/__admin/accounts').send({ plan: 'free' });
    const readOnly = await admin
      .post('/__admin/api_keys')
      .send({ account_id: made.body.account.id, name: 'fuzz read-only', access: 'read_only' });
    expect([made.status, other.status, readOnly.status]).toEqual([201, 201, 201]);
    const caller = { accountId: made.body.account.id, token: made.body.api_key.token, readOnlyToken: readOnly.body.token };
    await prime(app, caller.accountId, caller.token);
    await prime(app, other.body.account.id, other.body.api_key.token);
    // Each key's first use sets its `last_used_at`; with the frozen clock it never changes again.
    const sent = new Map<Credential, number>();
    for (const [credential, token] of [
      ['own', caller.token],
      ['readOnly', caller.readOnlyToken],
    ] as const) {
      const res = await admin.get('/v1/status').set(bearer(token));
      expect(res.status).toBe(200);
      sent.set(credential, Number(res.headers['x-ratelimit-limit']) - Number(res.headers['x-ratelimit-remaining']));
    }
    const world = new FuzzWorld(
      app,
      caller,
      other.body.account.id,
      await snapshot(app, caller.accountId),
      await snapshot(app, other.body.account.id),
    );
    for (const [credential, count] of sent) world.sent.set(credential, count);
    return world;
  }

  /** Request generators for `op`, drawing ids from the caller's and the bystander's records. */
  requests(op: OperationDef): OperationRequests {
    return new OperationRequests(op, new IdPool(this.callerState.value.state), new IdPool(this.bystanderState.value.state));
  }

  private authorization(request: GeneratedRequest): Record<string, string> {
    if (request.credential === 'own') return bearer(this.caller.token);
    if (request.credential === 'readOnly') return bearer(this.caller.readOnlyToken);
    return {};
  }

  async send(request: GeneratedRequest) {
    return sendAs(this.app, request, this.authorization(request));
  }

  /** Sends `request`, checks every invariant, and returns the status. */
  async run(request: GeneratedRequest): Promise<number> {
    const res = await this.send(request);
    const what = `${request.label}: ${request.method} ${request.url.slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
    expect(res.status, what).toBeLessThan(500);
    if (res.status >= 400) {
      expect(Object.keys(res.body), what).toEqual(['error']);
      expect(typeof res.body.error.code, what).toBe('string');
    }
    if (request.expect === 'reject') expect(res.status, what).toBeGreaterThanOrEqual(400);

    this.countRequest(request.credential, res.headers, what);
    if (res.status === 200 && res.body?.object === 'list') {
      const limit = Number(new URL(request.url, 'http://x').searchParams.get('limit') ?? DEFAULT_PAGE_LIMIT);
      expect(res.body.data.length, what).toBeLessThanOrEqual(limit);
    }

    const bystander = await snapshot(this.app, this.bystanderId);
    expectSame(bystander, this.bystanderState, `the bystander's state changed after ${what}`);
    const caller = await snapshot(this.app, this.caller.accountId);
    if (res.status >= 400 || request.method === 'GET') expectSame(caller, this.callerState, `the caller's state changed after ${what}`);
    this.expectCreditsConsistent(caller, what);
    this.expectRecordsConsistent(caller, what);
    this.callerState = caller;
    return res.status;
  }

  private countRequest(credential: Credential, headers: Record<string, string>, what: string): void {
    const count = (this.sent.get(credential) ?? 0) + 1;
    this.sent.set(credential, count);
    expect(Number(headers['x-ratelimit-remaining']), `rate-limit counter of ${credential} after ${what}`).toBe(
      Number(headers['x-ratelimit-limit']) - count,
    );
  }

  private expectCreditsConsistent(snapshot: Snapshot, what: string): void {
    const credits = snapshot.value.state.credits as Credits;
    expect(credits.balance, what).toBeGreaterThanOrEqual(0);
    expect(credits.used, what).toBeGreaterThanOrEqual(0);
    expect(credits.balance + credits.used, `credits balance + used after ${what}`).toBe(
      this.creditTotals.get(String(snapshot.value.account.id)),
    );
    const jobs = (snapshot.value.state.jobs ?? []) as Array<{ credits_used?: number | null }>;
    expect(
      jobs.reduce((sum, job) => sum + (job.credits_used ?? 0), 0),
      `jobs' credits_used vs account after ${what}`,
    ).toBe(credits.used);
  }

  /**
   * Counters agree with the records they count, and no record points at one that is gone: every
   * `*_id` / `*_ids` value with the prefix of a collection's ids names a record of the account.
   */
  private expectRecordsConsistent(snapshot: Snapshot, what: string): void {
    const state = snapshot.value.state as Record<string, Array<Record<string, unknown>>>;
    const experiences = state.experiences ?? [];
    const grants = state.grants ?? [];
    for (const experience of experiences) {
      const active = grants.filter((grant) => grant.experience_id === experience.id && grant.status === 'active').length;
      expect(experience.active_grants_count, `active_grants_count of ${String(experience.id)} after ${what}`).toBe(active);
    }
    const idsByPrefix = new Map<string, Set<string>>();
    for (const rows of Object.values(state)) {
      if (!Array.isArray(rows)) continue;
      for (const row of rows) {
        const id = String(row.id);
        const prefix = id.slice(0, id.indexOf('_'));
        if (!idsByPrefix.has(prefix)) idsByPrefix.set(prefix, new Set());
        idsByPrefix.get(prefix)!.add(id);
      }
    }
    for (const [collection, rows] of Object.entries(state)) {
      if (!Array.isArray(rows)) continue;
      for (const row of rows) {
        for (const [field, value] of Object.entries(row)) {
          if (!/_ids?$/.test(field)) continue;
          for (const ref of Array.isArray(value) ? value : [value]) {
            if (typeof ref !== 'string' || !ref.includes('_')) continue;
            const known = idsByPrefix.get(ref.slice(0, ref.indexOf('_')));
            if (known) expect(known.has(ref), `${collection} ${String(row.id)}.${field} points at missing ${ref} after ${what}`).toBe(true);
          }
        }
      }
    }
  }
}

function sendAs(app: MockApp, request: GeneratedRequest, authorization: Record<string, string>) {
  const method = request.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  const pending = client(app)
    [method](request.url)
    .set({ ...authorization, ...request.headers });
  if (request.body && 'json' in request.body)
    return pending.set('Content-Type', 'application/json').send(JSON.stringify(request.body.json));
  if (request.body) return pending.set('Content-Type', request.body.contentType).send(request.body.raw);
  return pending;
}

/**
 * Gives a tenant one record of every kind a write makes (a job, a submission…), by sending generated
 * valid requests of each write until one succeeds: reads then have something to find, and the
 * other tenant's ids something to point at.
 */
async function prime(app: MockApp, accountId: string, token: string): Promise<void> {
  for (const op of OPERATIONS.filter(isWrite)) {
    const pool = new IdPool((await snapshot(app, accountId)).value.state);
    for (const request of fc.sample(new OperationRequests(op, pool, new IdPool({})).valid(), 25)) {
      if ((await sendAs(app, request, bearer(token))).status === op.success.status) break;
    }
  }
}

async function snapshot(app: MockApp, accountId: string): Promise<Snapshot> {
  const res = await client(app).get(`/__admin/accounts/${accountId}`);
  expect(res.status).toBe(200);
  return { text: res.text, value: res.body };
}

function expectSame(now: Snapshot, before: Snapshot, message: string): void {
  // Compare the text first (cheap); on a difference let expect show the structural diff.
  if (now.text !== before.text) expect(now.value, message).toEqual(before.value);
}
