import { expect } from 'vitest';
import type { bearer, client } from '../support/harness.js';

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
