/**
 * Webhook endpoints are bounded per account, in count and in bytes, and their listing answers a
 * bounded page (docs/webhooks.md "Endpoints"; contract §4.3 says nothing of a limit: the refusal is
 * the spec's 422 `validation_failed` naming `account_id`).
 */
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINT_BYTES_PER_ACCOUNT, MAX_ENDPOINTS_PER_ACCOUNT } from '../../src/webhooks/endpoints.js';
import { ACCOUNTS, sandbox } from './support.js';

const URL_BASE = 'http://127.0.0.1:9/hooks';

function create(s: ReturnType<typeof sandbox>, url: string, accountId: string = ACCOUNTS.free) {
  return s.api.post('/__admin/webhook_endpoints').send({ account_id: accountId, url });
}

async function listed(s: ReturnType<typeof sandbox>, query: Record<string, string | number>) {
  return s.api.get('/__admin/webhook_endpoints').query(query);
}

describe('webhook endpoints per account are bounded in count and bytes', () => {
  it(`contract §4.3: an account keeps at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints; one more is 422 naming account_id, and changes nothing`, async () => {
    const s = sandbox();
    for (let i = 0; i < MAX_ENDPOINTS_PER_ACCOUNT; i++) expect((await create(s, `${URL_BASE}/${i}`)).status).toBe(201);
    const refused = await create(s, `${URL_BASE}/one-more`);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ type: 'validation_error', code: 'validation_failed', param: 'account_id' });
    expect(refused.body.error.errors.account_id[0]).toContain(`${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints`);
    const all = await listed(s, { account_id: ACCOUNTS.free, limit: 1000 });
    expect(all.body.data).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT);
    // Another account has a budget of its own.
    expect((await create(s, URL_BASE, ACCOUNTS.paid)).status).toBe(201);
    // Room again once one is deleted.
    expect((await s.api.delete(`/__admin/webhook_endpoints/${all.body.data[0].id}`)).status).toBe(200);
    expect((await create(s, `${URL_BASE}/again`)).status).toBe(201);
  });

  it(`contract §4.3: an account keeps at most ${MAX_ENDPOINT_BYTES_PER_ACCOUNT} bytes of endpoints; past it, 422 naming account_id`, async () => {
    const s = sandbox();
    const long = (i: number) => `${URL_BASE}/${String(i).padStart(4, '0')}/${'x'.repeat(2000)}`;
    let made = 0;
    let refused: Awaited<ReturnType<typeof create>> | undefined;
    for (let i = 0; i < MAX_ENDPOINTS_PER_ACCOUNT && !refused; i++) {
      const res = await create(s, long(i));
      if (res.status === 201) made += 1;
      else refused = res;
    }
    expect(refused?.status).toBe(422);
    expect(refused!.body.error).toMatchObject({ code: 'validation_failed', param: 'account_id' });
    expect(refused!.body.error.errors.account_id[0]).toContain('bytes');
    expect(made).toBeLessThan(MAX_ENDPOINTS_PER_ACCOUNT);
    const kept = (await listed(s, { account_id: ACCOUNTS.free, limit: 1000 })).body.data as Array<{ id: string }>;
    expect(kept).toHaveLength(made);
    expect(Buffer.byteLength(kept.map((e) => JSON.stringify(e)).join(''))).toBeLessThanOrEqual(MAX_ENDPOINT_BYTES_PER_ACCOUNT);
    // The bytes of a deleted endpoint are free again.
    expect((await s.api.delete(`/__admin/webhook_endpoints/${kept[0]!.id}`)).status).toBe(200);
    expect((await create(s, long(1000))).status).toBe(201);
  });
});

describe('GET /__admin/webhook_endpoints answers a bounded page', () => {
  it('contract §4.3: oldest first, `limit` (default 100, at most 1000) and `starting_after`, has_more when more are left', async () => {
    const s = sandbox();
    const ids: string[] = [];
    for (const account of [ACCOUNTS.free, ACCOUNTS.paid, ACCOUNTS.free]) ids.push((await create(s, URL_BASE, account)).body.id as string);
    const first = await listed(s, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    const rest = await listed(s, { limit: 2, starting_after: ids[1]! });
    expect(rest.body).toMatchObject({ has_more: false });
    expect(rest.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);
    const mine = await listed(s, { account_id: ACCOUNTS.free, limit: 1 });
    expect(mine.body).toMatchObject({ has_more: true, data: [{ id: ids[0] }] });
    const mineRest = await listed(s, { account_id: ACCOUNTS.free, starting_after: ids[0]! });
    expect(mineRest.body).toMatchObject({ has_more: false, data: [{ id: ids[2] }] });
  });

  it('contract §4.3: an unknown cursor, one of another account, or a limit out of range is refused in the envelope', async () => {
    const s = sandbox();
    const other = (await create(s, URL_BASE, ACCOUNTS.paid)).body.id as string;
    const unknown = await listed(s, { starting_after: 'we_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'bad_request', param: 'starting_after' });
    const foreign = await listed(s, { account_id: ACCOUNTS.free, starting_after: other });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'bad_request', param: 'starting_after' });
    expect((await listed(s, { limit: 1001 })).status).toBe(400);
    expect((await listed(s, { limit: 0 })).status).toBe(400);
  });
});

describe('an account loaded from a snapshot is held to the same endpoint budget', () => {
  it(`contract §5.3: a snapshot holding more than ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints is 422 naming snapshot.webhook_endpoints`, async () => {
    const origin = sandbox({ seed: 'endpoint-budget-snapshot' });
    const id = (await origin.api.post('/__admin/accounts').send({})).body.account.id as string;
    const made = (await create(origin, URL_BASE, id)).body as Record<string, unknown>;
    const snapshot = (await origin.api.get(`/__admin/accounts/${id}/snapshot`)).body as { webhook_endpoints: unknown[] };
    snapshot.webhook_endpoints = Array.from({ length: MAX_ENDPOINTS_PER_ACCOUNT + 1 }, (_, i) => ({
      ...made,
      id: `we_${String(i).padStart(24, '0')}`,
    }));
    const here = sandbox({ seed: 'endpoint-budget-snapshot' });
    const refused = await here.api.post('/__admin/accounts').send({ snapshot });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'validation_failed', param: 'snapshot.webhook_endpoints' });
    snapshot.webhook_endpoints.pop();
    expect((await here.api.post('/__admin/accounts').send({ snapshot })).status).toBe(201);
  });
});
