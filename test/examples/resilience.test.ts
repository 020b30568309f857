/**
 * Example: a client's retry logic against forced failures. Each scenario is scoped to this file's
 * own account, so other files running in parallel workers never see it.
 */
import { describe, expect, it } from 'vitest';
import { CommerceApiError } from './client.js';
import { mock, useTenant } from './sandbox.js';

const tenant = useTenant();

/** An email-only lead-magnet form of this tenant (every account is seeded with some). */
async function emailOnlyForm(): Promise<string> {
  const { state } = await mock.admin.accounts.get(tenant.accountId);
  const form = state.forms.find((f) =>
    (f.fields as Array<{ field_type: string; required: boolean }>).every((field) => field.field_type === 'email' || !field.required),
  );
  if (!form) throw new Error('the account template has no email-only form');
  return form.id;
}

describe('a forced 429', () => {
  it('spec §8: the client waits for Retry-After, retries, and succeeds', async () => {
    await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.accountId, times: 2, params: { retry_after: 3 } });
    const page = await tenant.client().listExperiences();
    expect(page.object).toBe('list');
    // The client asked to wait 3 s twice (recorded, not slept), and the sandbox saw three requests.
    expect(tenant.waits.splice(0)).toEqual([3000, 3000]);
    const { data } = await mock.admin.requests.list({ account_id: tenant.accountId, limit: 3 });
    expect(data.map((entry) => [entry.operation_id, entry.status])).toEqual([
      ['listExperiences', 200],
      ['listExperiences', 429],
      ['listExperiences', 429],
    ]);
  });

  it('spec §8: past its retry budget the client surfaces rate_limit_exceeded', async () => {
    const active = await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.accountId });
    try {
      const error = await tenant
        .client({ maxRetries: 1 })
        .listExperiences()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CommerceApiError);
      expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    } finally {
      await mock.admin.scenarios.deactivate(active.id);
      tenant.waits.splice(0);
    }
  });
});

describe('a 500 on a write, and what the client actually sent', () => {
  it('spec §7.3.5: the retry carries the same Idempotency-Key, so the submission exists exactly once', async () => {
    const formId = await emailOnlyForm();
    await mock.admin.scenarios.activate({
      name: 'server-error',
      account_id: tenant.accountId,
      operation_id: 'createFormSubmission',
      times: 1,
    });
    const submission = await tenant.client().submitForm({ form_id: formId, email: 'ada@example.com' });
    const { data } = await mock.admin.requests.list({ account_id: tenant.accountId, operation_id: 'createFormSubmission', limit: 2 });
    expect(data.map((entry) => entry.status)).toEqual([201, 500]);
    // The journal keeps each body as sent: the client sent the same one twice.
    expect(data.map((entry) => entry.body)).toEqual([
      { form_id: formId, email: 'ada@example.com' },
      { form_id: formId, email: 'ada@example.com' },
    ]);
    const { state } = await mock.admin.accounts.get(tenant.accountId);
    expect(state.form_submissions.filter((s) => s.id === submission.id)).toHaveLength(1);
  });

  it('spec §7.2: the client does not retry a 422, and the journal shows the one request', async () => {
    const error = await tenant
      .client()
      .submitForm({ form_id: await emailOnlyForm(), email: 'not-an-email' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
    const { data } = await mock.admin.requests.list({ account_id: tenant.accountId, operation_id: 'createFormSubmission', limit: 1 });
    expect(data[0]).toMatchObject({ status: 422, body: { email: 'not-an-email' }, scenario_ids: [] });
  });
});
