/**
 * Ids of accounts made without one (`POST /__admin/accounts {}`) come from the sandbox's stream; a
 * client may have chosen the very id the stream draws next. The draw skips ids that are taken (as
 * every id stream does), and a creation with an id that is taken, however it arises, is refused
 * before anything is touched: the account that holds the id keeps its clock, records and reset.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ApiError } from '../../src/errors/api-error.js';

const OPTIONS = { clock: '2026-01-15T12:00:00Z' };

/** The ids a sandbox with these options draws for its first `n` accounts made without an id. */
async function drawnIds(n: number): Promise<string[]> {
  const twin = request(createApp(OPTIONS).callback());
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await twin.post('/__admin/accounts').send({})).body.account.id);
  return ids;
}

describe('an account id drawn by the sandbox never equals one a client chose', () => {
  it('skips a taken id: the drawn account gets the next draw, and the chosen one keeps its clock and its reset', async () => {
    const [predicted, next] = await drawnIds(2);
    const http = request(createApp(OPTIONS).callback());
    expect((await http.post('/__admin/accounts').send({ id: predicted, clock: 'frozen' })).status).toBe(201);
    expect((await http.post(`/__admin/accounts/${predicted}/clock/advance`).send({ seconds: 3600 })).status).toBe(200);
    const clockBefore = (await http.get(`/__admin/accounts/${predicted}/clock`)).body;

    const drawn = await http.post('/__admin/accounts').send({});
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);
    // Deterministic: the draw after the skipped one, as a twin sandbox draws it second.
    expect(drawn.body.account.id).toBe(next);

    expect((await http.get(`/__admin/accounts/${predicted}/clock`)).body).toEqual(clockBefore);
    expect((await http.post(`/__admin/accounts/${predicted}/reset`)).status).toBe(200);
  });

  it('World.createAccount refuses an id in use with 409 resource_exists before touching the account that has it', async () => {
    const app = createApp(OPTIONS);
    const http = request(app.callback());
    const id = 'acct_chosen';
    expect((await http.post('/__admin/accounts').send({ id, clock: 'frozen' })).status).toBe(201);
    await http.post(`/__admin/accounts/${id}/clock/advance`).send({ seconds: 3600 });
    const clockBefore = (await http.get(`/__admin/accounts/${id}/clock`)).body;
    const world = app.sandbox.world;
    const tenant = world.tenants.get(id);

    let refusal: unknown;
    try {
      world.createAccount({ id, plan: 'free', clock: { mode: 'frozen', start: 0 } });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(409);
    expect((refusal as ApiError).code).toBe('resource_exists');
    expect(world.tenants.get(id)).toBe(tenant);
    expect((await http.get(`/__admin/accounts/${id}/clock`)).body).toEqual(clockBefore);
    expect((await http.post(`/__admin/accounts/${id}/reset`)).status).toBe(200);
  });
});
