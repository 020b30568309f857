import { expect } from 'vitest';
import { bearer, client, makeApp } from '../support/harness.js';

type Json = Record<string, any>;

/**
 * Submits a form of the account whose only required field is its email (one the template seeds),
 * so the snapshot holds a submission, its delivery and the customer it made. Returns the account state read first.
 */
export async function submitAForm(api: ReturnType<typeof client>, accountId: string, auth: ReturnType<typeof bearer>): Promise<Json> {
  const state = (await api.get(`/__admin/accounts/${accountId}`)).body.state;
  const form = state.forms.find((f: Json) => f.fields.every((field: Json) => !field.required || field.field_type === 'email'));
  const email = form.fields.find((field: Json) => field.field_type === 'email');
  const sent = await api
    .post('/v1/form_submissions')
    .set(auth)
    .send({ form_id: form.id, answers: { [email.id]: 'a@example.com' } });
  expect(sent.status).toBe(201);
  return state;
}

/**
 * A snapshot of an account that holds a bit of everything: a form submission (with its delivery and
 * customer), a crawl job and a webhook endpoint, on a frozen clock.
 */
export async function realSnapshot(): Promise<Json> {
  const api = client(makeApp());
  const made = await api.post('/__admin/accounts').send({ clock: 'frozen' });
  const auth = bearer(made.body.api_key.token);
  const id = made.body.account.id as string;
  await submitAForm(api, id, auth);
  expect((await api.post('/v1/web/crawl').set(auth).send({ url: 'https://example.com/' })).status).toBe(201);
  expect((await api.post('/__admin/webhook_endpoints').send({ account_id: id, url: 'http://127.0.0.1:9/hooks' })).status).toBe(201);
  const snapshot = (await api.get(`/__admin/accounts/${id}/snapshot`)).body as Json;
  expect(snapshot.records.form_submissions).toHaveLength(1);
  return snapshot;
}
