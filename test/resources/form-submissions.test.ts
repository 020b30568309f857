import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { FIXTURES_DIR } from '../../src/package-dirs.js';
import { ANSWER_MESSAGES } from '../../src/resources/form-submissions/answers.js';
import { createFormSubmission } from '../../src/resources/form-submissions/operations.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { writeFixture } from '../support/protocol.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

const { survey } = PINNED.free;

const WITH_REGISTRATION_FORM = (() => {
  const base = JSON.parse(readFileSync(path.join(FIXTURES_DIR, 'default.json'), 'utf8')) as {
    template: { counts: Record<string, number> };
  };
  return writeFixture({ template: { ...base.template, counts: { ...base.template.counts, forms: 5 } } });
})();

describe('POST /v1/form_submissions (spec §4.5)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const submit = (body: unknown, token: string = KEYS.free) =>
    client(app)
      .post('/v1/form_submissions')
      .set(bearer(token))
      .send(body as object);

  it('§4.5: answers may be {} for an email-only form; email fills the email field; 201 FormSubmission', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, email: 'Ada.Lovelace@example.com', answers: {} });
    expectSuccess(res, createFormSubmission);
    expect(res.body).toMatchObject({
      object: 'form_submission',
      form_id: PINNED.free.newsletterForm,
      respondent_type: 'customer',
      created_at: '2026-01-15T12:00:00Z',
    });
    expect(res.body.id).toMatch(/^fsub_/);
    expect(res.body.answers).toEqual([
      { field_type: 'email', label: 'Email address', required: true, value: 'Ada.Lovelace@example.com', options: [] },
    ]);
  });

  it('§4.5: answers may be omitted altogether for an email-only form', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, email: 'grace@example.com' });
    expectSuccess(res, createFormSubmission);
  });

  it('§4.5: a new email creates a customer who becomes the respondent, and a delivery is recorded (§6)', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, email: 'Ada.Lovelace@example.com' });
    const state = await stateOf(app, ACCOUNTS.free);
    const customer = state.customers.find((c) => c.id === res.body.respondent_id);
    expect(customer).toMatchObject({ email: 'ada.lovelace@example.com', name: 'Ada.Lovelace', created_at: '2026-01-15T12:00:00Z' });
    expect(state.form_submissions.map((s) => s.id)).toEqual([res.body.id]);
    const form = state.forms.find((f) => f.id === PINNED.free.newsletterForm)!;
    expect(state.deliveries).toEqual([
      {
        id: expect.stringMatching(/^dlv_/),
        object: 'delivery',
        form_id: form.id,
        form_submission_id: res.body.id,
        customer_id: customer!.id,
        email: 'ada.lovelace@example.com',
        experience_id: form.lead_magnet_experience_id,
        channel: 'email',
        status: 'sent',
        created_at: '2026-01-15T12:00:00Z',
      },
    ]);
  });

  it('§4.5: an existing customer is matched by email, case-insensitively, and no duplicate is made', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    const existing = before.customers[0]!;
    const res = await submit({ form_id: PINNED.free.newsletterForm, email: existing.email.toUpperCase() });
    expect(res.body.respondent_id).toBe(existing.id);
    const after = await stateOf(app, ACCOUNTS.free);
    expect(after.customers).toHaveLength(before.customers.length);
    expect(after.customers.find((c) => c.id === existing.id)!.name).toBe(existing.name);
    expect(after.deliveries).toHaveLength(1);
  });

  it('§4.5: two submissions with one email share one customer and trigger two deliveries', async () => {
    const first = await submit({ form_id: PINNED.free.newsletterForm, email: 'lin@example.com' });
    const second = await submit({ form_id: PINNED.free.surveyForm, email: 'lin@example.com', answers: { [survey.role]: 'Side project' } });
    expect(second.body.respondent_id).toBe(first.body.respondent_id);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.deliveries.map((d) => d.form_submission_id)).toEqual([first.body.id, second.body.id]);
  });

  it('§4.5: name defaults to the local part of the email and fills the first text field', async () => {
    const res = await submit({
      form_id: PINNED.free.surveyForm,
      email: 'sam.rivera@example.com',
      answers: { [survey.role]: 'Full-time creator' },
    });
    expectSuccess(res, createFormSubmission);
    expect(res.body.answers.map((a: { label: string; value: string }) => [a.label, a.value])).toEqual([
      ['Email address', 'sam.rivera@example.com'],
      ['First name', 'sam.rivera'],
      ['What best describes you?', 'Full-time creator'],
    ]);
  });

  it('§4.5: an explicit name fills the first text field and names the new customer', async () => {
    const res = await submit({
      form_id: PINNED.free.surveyForm,
      email: 'sam@example.com',
      name: 'Sam',
      answers: { [survey.role]: 'Side project' },
    });
    expect(res.body.answers[1]).toMatchObject({ field_type: 'text', value: 'Sam' });
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.customers.find((c) => c.id === res.body.respondent_id)!.name).toBe('Sam');
  });

  it('§4.5: answers win over email and name for their fields; the customer is still matched by email', async () => {
    const res = await submit({
      form_id: PINNED.free.surveyForm,
      email: 'sam@example.com',
      name: 'Ignored For The Field',
      answers: { [survey.email]: 'work@example.com', [survey.name]: 'Samantha', [survey.role]: 'Agency or team' },
    });
    expectSuccess(res, createFormSubmission);
    expect(res.body.answers.map((a: { value: string }) => a.value)).toEqual(['work@example.com', 'Samantha', 'Agency or team']);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.customers.find((c) => c.id === res.body.respondent_id)!.email).toBe('sam@example.com');
  });

  it('§4.5: a checkbox with options takes a list of choices, stored as one string in the form order', async () => {
    const state = await stateOf(app, ACCOUNTS.free);
    const options = state.forms.find((f) => f.id === PINNED.free.surveyForm)!.fields.find((f) => f.id === survey.topics)!.options;
    const res = await submit({
      form_id: PINNED.free.surveyForm,
      email: 'kim@example.com',
      answers: { [survey.role]: 'Side project', [survey.topics]: [options[2], options[0]] },
    });
    expectSuccess(res, createFormSubmission);
    expect(res.body.answers[3]).toEqual({
      field_type: 'checkbox',
      label: 'Which topics should we cover?',
      required: false,
      value: `${options[0]}, ${options[2]}`,
      options,
    });
  });

  describe('spec §2.4 (every answer value is a string): values in the form a browser posts are accepted', () => {
    // The pinned forms are a newsletter and a survey; a fifth form is the `registration` preset with its consent box.
    beforeEach(() => {
      app = makeApp({ fixtures: WITH_REGISTRATION_FORM });
    });
    const registration = async () => {
      const form = (await stateOf(app, ACCOUNTS.free)).forms.find((f) =>
        f.fields.some((x) => x.field_type === 'checkbox' && x.options.length === 0),
      )!;
      const field = (type: string) => form.fields.find((x) => x.field_type === type)!;
      return { form, consent: field('checkbox'), name: field('text'), phone: field('phone') };
    };

    it.each([
      ['true', 'true'],
      ['TRUE', 'true'],
      ['on', 'true'],
      ['yes', 'true'],
      ['the checkbox label', 'true'],
      [true, 'true'],
    ])('spec §2.4: a consent checkbox answered %j is stored as %j', async (sent, stored) => {
      const { form, consent } = await registration();
      const value = sent === 'the checkbox label' ? consent.label : sent;
      const res = await submit({ form_id: form.id, email: 'ada@example.com', answers: { [consent.id]: value } });
      expectSuccess(res, createFormSubmission);
      expect(res.body.answers.find((a: { field_type: string }) => a.field_type === 'checkbox').value).toBe(stored);
    });

    it('spec §4.5: an empty name takes the default; long free text is stored as sent', async () => {
      const long = 'x'.repeat(6000);
      const res = await submit({
        form_id: PINNED.free.surveyForm,
        email: 'sam@example.com',
        name: '',
        answers: { [survey.role]: 'Side project' },
      });
      expectSuccess(res, createFormSubmission);
      expect(res.body.answers[1].value).toBe('sam');
      const { form } = await registration();
      const goals = form.fields.find((f) => f.field_type === 'textarea')!;
      const consent = form.fields.find((f) => f.field_type === 'checkbox')!;
      const text = await submit({
        form_id: form.id,
        email: 'sam@example.com',
        name: 'n'.repeat(300),
        answers: { [goals.id]: long, [consent.id]: true },
      });
      expectSuccess(text, createFormSubmission);
      expect(text.body.answers.map((a: { value: string }) => a.value.length)).toEqual(expect.arrayContaining([300, 6000]));
    });

    it('spec §2.4: "false" on a required consent box is "must be checked", not a type error; "maybe" is still refused', async () => {
      const { form, consent } = await registration();
      const unchecked = await submit({ form_id: form.id, email: 'ada@example.com', answers: { [consent.id]: 'false' } });
      expectError(unchecked, 'validation_failed', {
        param: `answers.${consent.id}`,
        errors: { [`answers.${consent.id}`]: [ANSWER_MESSAGES.consentRequired] },
      });
      const nonsense = await submit({ form_id: form.id, email: 'ada@example.com', answers: { [consent.id]: 'maybe' } });
      expectError(nonsense, 'validation_failed', {
        param: `answers.${consent.id}`,
        errors: { [`answers.${consent.id}`]: [ANSWER_MESSAGES.consent] },
      });
    });

    it('spec §2.4: numbers for text and phone fields, a one-choice string and an empty select are taken in their string form', async () => {
      const { form, consent, name, phone } = await registration();
      const res = await submit({
        form_id: form.id,
        email: 'ada@example.com',
        answers: { [consent.id]: 'on', [name.id]: 42, [phone.id]: 15550102030 },
      });
      expectSuccess(res, createFormSubmission);
      const values = Object.fromEntries(res.body.answers.map((a: { label: string; value: string }) => [a.label, a.value]));
      expect(values).toMatchObject({ [name.label]: '42', [phone.label]: '15550102030' });
      // An empty string is what a form posts for a field left blank: unanswered, not invalid.
      const blank = await submit({
        form_id: PINNED.free.surveyForm,
        email: 'a@example.com',
        answers: { [survey.role]: 'Side project', [survey.topics]: '' },
      });
      expectSuccess(blank, createFormSubmission);
      expect(blank.body.answers.map((a: { field_type: string }) => a.field_type)).toEqual(['email', 'text', 'select']);
    });
  });

  it('§4.5: the email can come from the email field alone; the customer is matched by it', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, answers: { fld_free_newsletter_email: 'only@example.com' } });
    expectSuccess(res, createFormSubmission);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.customers.find((c) => c.id === res.body.respondent_id)).toMatchObject({ email: 'only@example.com', name: 'only' });
  });

  it('§4.5, §7.2: 422 naming the field for a required field left unanswered', async () => {
    const res = await submit({ form_id: PINNED.free.surveyForm, email: 'a@example.com', answers: {} });
    expectError(res, 'validation_failed', {
      param: `answers.${survey.role}`,
      errors: { [`answers.${survey.role}`]: [ANSWER_MESSAGES.required] },
      message: MESSAGES.validationFailed,
    });
  });

  it('§4.5, §7.2: 422 naming the field for a value outside the options, a wrong type and an unknown field, all at once', async () => {
    const res = await submit({
      form_id: PINNED.free.surveyForm,
      email: 'a@example.com',
      answers: { [survey.role]: 'Astronaut', [survey.name]: { first: 'Ada' }, [survey.topics]: ['Not an option'], fld_nope: 'x' },
    });
    const state = await stateOf(app, ACCOUNTS.free);
    const fields = state.forms.find((f) => f.id === PINNED.free.surveyForm)!.fields;
    const optionsOf = (id: string) => fields.find((f) => f.id === id)!.options;
    expectError(res, 'validation_failed', {
      param: 'answers.fld_nope',
      errors: {
        'answers.fld_nope': [ANSWER_MESSAGES.unknownField],
        [`answers.${survey.name}`]: [ANSWER_MESSAGES.notString],
        [`answers.${survey.role}`]: [ANSWER_MESSAGES.option(optionsOf(survey.role))],
        [`answers.${survey.topics}`]: [ANSWER_MESSAGES.choices(optionsOf(survey.topics))],
      },
    });
  });

  it('§4.5, §7.2: 422 naming the email field when neither email nor an answer gives it', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, answers: {} });
    expectError(res, 'validation_failed', {
      param: 'answers.fld_free_newsletter_email',
      errors: { 'answers.fld_free_newsletter_email': [ANSWER_MESSAGES.required] },
    });
  });

  it('§4.5, §7.2: 422 naming the email field for an invalid address in answers', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, answers: { fld_free_newsletter_email: 'not-an-email' } });
    expectError(res, 'validation_failed', {
      param: 'answers.fld_free_newsletter_email',
      errors: { 'answers.fld_free_newsletter_email': [ANSWER_MESSAGES.email] },
    });
  });

  it('§4.5, §7.2: 422 naming email for a malformed email parameter', async () => {
    const res = await submit({ form_id: PINNED.free.newsletterForm, email: 'nope' });
    expectError(res, 'validation_failed', { param: 'email', errors: { email: ['must be a valid email'] } });
  });

  it('§1, §4.5: a raw, unprefixed form id is refused with an error naming form_id', async () => {
    const res = await submit({ form_id: '12345', email: 'a@example.com' });
    expectError(res, 'validation_failed', {
      param: 'form_id',
      errors: { form_id: ["must be an id prefixed 'frm_' (raw ids are not accepted)"] },
    });
  });

  it('§4.5, §7.3.1: an unknown form is 404 resource_missing naming form_id', async () => {
    const res = await submit({ form_id: 'frm_doesnotexist', email: 'a@example.com' });
    expectError(res, 'resource_missing', { param: 'form_id', message: "No such form: 'frm_doesnotexist'." });
  });

  it('§7.2: form_id missing is 400 parameter_missing', async () => {
    const res = await submit({ email: 'a@example.com' });
    expectError(res, 'parameter_missing', { param: 'form_id', message: MESSAGES.missingParameter('form_id') });
  });

  it('§7.2: a body wrapped under a resource key is 400 parameter_unknown', async () => {
    const res = await submit({ form_submission: { form_id: PINNED.free.newsletterForm, email: 'a@example.com' } });
    expectError(res, 'parameter_unknown', { param: 'form_submission', message: MESSAGES.wrappedBody('form_submission') });
  });

  it('a rejected submission leaves customers, submissions and deliveries unchanged', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    await submit({ form_id: PINNED.free.surveyForm, email: 'new@example.com', answers: { [survey.role]: 'Astronaut' } });
    const after = await stateOf(app, ACCOUNTS.free);
    expect(after.customers).toEqual(before.customers);
    expect(after.form_submissions).toEqual([]);
    expect(after.deliveries).toEqual([]);
  });

  it("tenancy: another account's form is 404, and nothing is written to either account", async () => {
    const res = await submit({ form_id: PINNED.paid.newsletterForm, email: 'a@example.com' });
    expectError(res, 'resource_missing', { param: 'form_id', message: `No such form: '${PINNED.paid.newsletterForm}'.` });
    expect((await stateOf(app, ACCOUNTS.paid)).form_submissions).toEqual([]);
    expect((await stateOf(app, ACCOUNTS.free)).deliveries).toEqual([]);
  });

  it('tenancy: a tenant made through the admin API submits its own forms and matches only its own customers', async () => {
    const tenant = await newTenant(app);
    const free = await stateOf(app, ACCOUNTS.free);
    const own = await stateOf(app, tenant.accountId);
    const form = own.forms.find((f) => f.fields.length === 1)!;
    const res = await submit({ form_id: form.id, email: free.customers[0]!.email }, tenant.token);
    expectSuccess(res, createFormSubmission);
    expect(free.customers.map((c) => c.id)).not.toContain(res.body.respondent_id);
    expect((await stateOf(app, tenant.accountId)).deliveries).toHaveLength(1);
    expect((await stateOf(app, ACCOUNTS.free)).deliveries).toEqual([]);
  });
});
