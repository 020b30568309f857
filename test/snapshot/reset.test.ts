/**
 * Contract §4.1 (account reset: "its state right after it was created") with §5.3: an account loaded
 * from a snapshot was created as the snapshot says, so its reset brings the loaded snapshot back:
 * keys, records of every kind (form submissions included), jobs, credits, endpoints and clock.
 */
import { describe, expect, it } from 'vitest';
import { bearer, client, makeApp } from '../support/harness.js';

type Api = ReturnType<typeof client>;
type Json = Record<string, any>;

async function snapshotText(api: Api, id: string): Promise<string> {
  const res = await api.get(`/__admin/accounts/${id}/snapshot`);
  expect(res.status, res.text).toBe(200);
  return res.text;
}

/** Writes of every kind the snapshot holds: a record changed, a form submission, a job, a key, an endpoint. */
async function useIt(api: Api, id: string, token: string, name: string): Promise<void> {
  const auth = bearer(token);
  const state = (await api.get(`/__admin/accounts/${id}`)).body.state;
  expect((await api.patch(`/v1/email/inboxes/${state.inboxes[0].id}`).set(auth).send({ display_name: name })).status).toBe(200);
  const form = state.forms.find((f: Json) => f.fields.every((field: Json) => !field.required || field.field_type === 'email'));
  expect(form).toBeDefined();
  const email = form.fields.find((field: Json) => field.field_type === 'email');
  const answers = email ? { [email.id]: 'someone@example.com' } : {};
  expect((await api.post('/v1/form_submissions').set(auth).send({ form_id: form.id, answers })).status).toBe(201);
  expect((await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/', max_pages: 3 })).status).toBe(201);
  expect((await api.post('/__admin/api_keys').send({ account_id: id, name: 'CI', access: 'read_only' })).status).toBe(201);
}

describe('contract §4.1 reset of an account loaded from a snapshot (§5.3)', () => {
  it('§4.1 + §5.3: reset brings back the loaded snapshot: keys, records, form submissions, jobs, credits, endpoints and clock', async () => {
    const taken = client(makeApp());
    const born = (await taken.post('/__admin/accounts').send({ clock: 'frozen', plan: 'paid' })).body;
    await useIt(taken, born.account.id, born.api_key.token, 'Renamed');
    expect(
      (await taken.post('/__admin/webhook_endpoints').send({ account_id: born.account.id, url: 'http://127.0.0.1:9/hooks' })).status,
    ).toBe(201);
    const snapshot = JSON.parse(await snapshotText(taken, born.account.id)) as Json;
    expect(snapshot.records.form_submissions.length).toBeGreaterThan(0);
    expect(snapshot.jobs.length).toBe(1);

    const api = client(makeApp());
    const loaded = await api.post('/__admin/accounts').send({ snapshot });
    expect(loaded.status, loaded.text).toBe(201);
    const { id } = loaded.body.account;
    const token = loaded.body.api_key.token as string;
    const atLoad = await snapshotText(api, id);

    // Everything changes: records of every kind, jobs, credits, keys, the endpoint, the clock.
    await useIt(api, id, token, 'Renamed after the load');
    const endpointId = snapshot.webhook_endpoints[0].id as string;
    expect((await api.delete(`/__admin/webhook_endpoints/${endpointId}`)).status).toBe(200);
    expect((await api.post(`/__admin/accounts/${id}/clock/advance`).send({ seconds: 3600 })).status).toBe(200);
    expect(await snapshotText(api, id)).not.toBe(atLoad);

    const reset = await api.post(`/__admin/accounts/${id}/reset`);
    expect(reset.status, reset.text).toBe(200);
    expect(await snapshotText(api, id)).toBe(atLoad);

    // Its unfinished job is watched again: it ends on the account's clock, its event sent to the restored endpoint.
    const idle = await api.post(`/__admin/accounts/${id}/clock/advance`).send({ until: 'idle' });
    expect(idle.status, idle.text).toBe(200);
    expect(idle.body.advanced_seconds).toBeGreaterThan(0);
    const job = (await api.get(`/v1/jobs/${snapshot.jobs[0].id as string}`).set(bearer(token))).body;
    expect(job.status).toBe('completed');
  });
});
