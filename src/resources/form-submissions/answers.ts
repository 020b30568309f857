/**
 * Turns the `answers` of a form submission (field id -> value) into the answer list of spec §2.4,
 * checking every value against its field's type, required flag and options. `email` and `name`
 * fill the email field and the first text field when no answer is given for them (spec §4.5).
 * Every problem is collected and reported at once, keyed `answers.<field id>`.
 */
import type { FieldErrors } from '../../errors/api-error.js';
import { validationFailed } from '../../operations/validation.js';
import type { FormAnswer, FormField, FormRecord } from '../../store/records.js';

export const ANSWER_MESSAGES = {
  unknownField: 'is not a field of this form',
  required: 'is required',
  consentRequired: 'must be checked',
  notString: 'must be a string',
  tooLong: (max: number) => `must be at most ${max} characters`,
  email: 'must be a valid email address',
  number: 'must be a number',
  phone: 'must be a phone number (7 to 15 digits, optionally starting with +)',
  url: 'must be an http or https URL',
  option: (options: string[]) => `must be one of: ${options.join(', ')}`,
  choices: (options: string[]) => `must be a list of distinct choices from: ${options.join(', ')}`,
  consent: 'must be true or false',
  emailMissing: 'is required: the form has no email field, so the respondent is identified by this address',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `{ value }` for an answer, `{ error }` for a bad one, `{}` when the field is left unanswered. */
type Checked = { value: string } | { error: string } | Record<string, never>;

function text(value: unknown, max: number): Checked {
  if (typeof value !== 'string') return { error: ANSWER_MESSAGES.notString };
  const trimmed = value.trim();
  if (trimmed === '') return {};
  return trimmed.length > max ? { error: ANSWER_MESSAGES.tooLong(max) } : { value: trimmed };
}

function matching(value: unknown, max: number, test: (s: string) => boolean, message: string): Checked {
  const checked = text(value, max);
  return 'value' in checked && !test(checked.value) ? { error: message } : checked;
}

function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function checkbox(field: FormField, value: unknown): Checked {
  // Without options a checkbox is one box (consent): true or false.
  if (field.options.length === 0) {
    if (typeof value !== 'boolean') return { error: ANSWER_MESSAGES.consent };
    if (!value && field.required) return { error: ANSWER_MESSAGES.consentRequired };
    return { value: String(value) };
  }
  const choices = typeof value === 'string' ? [value] : value;
  const valid =
    Array.isArray(choices) &&
    new Set(choices).size === choices.length &&
    choices.every((c) => typeof c === 'string' && field.options.includes(c));
  if (!valid) return { error: ANSWER_MESSAGES.choices(field.options) };
  if (choices.length === 0) return {};
  // Stored as one string (spec §2.4: value is a string), choices in the form's order.
  return { value: field.options.filter((o) => choices.includes(o)).join(', ') };
}

export function checkAnswer(field: FormField, value: unknown): Checked {
  if (value === undefined || value === null) return {};
  switch (field.field_type) {
    case 'email':
      return matching(value, 254, (s) => EMAIL.test(s), ANSWER_MESSAGES.email);
    case 'text':
      return text(value, 255);
    case 'textarea':
      return text(value, 5000);
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? { value: String(n) } : { error: ANSWER_MESSAGES.number };
    }
    case 'phone':
      return matching(value, 32, (s) => /^\+?[0-9 ().-]+$/.test(s) && /^(\D*\d){7,15}\D*$/.test(s), ANSWER_MESSAGES.phone);
    case 'url':
      return matching(value, 2048, isHttpUrl, ANSWER_MESSAGES.url);
    case 'select':
      return typeof value === 'string' && field.options.includes(value) ? { value } : { error: ANSWER_MESSAGES.option(field.options) };
    case 'checkbox':
      return checkbox(field, value);
  }
}

function answerOf(field: FormField, value: string): FormAnswer {
  return { field_type: field.field_type, label: field.label, required: field.required, value, options: [...field.options] };
}

export interface SubmissionInput {
  answers: Record<string, unknown>;
  email?: string | undefined;
  name?: string | undefined;
}

/** The answer list and the respondent's email, or a 422 naming every offending field. */
export function resolveAnswers(form: FormRecord, input: SubmissionInput): { answers: FormAnswer[]; email: string; name: string } {
  const errors: FieldErrors = {};
  const fieldIds = new Set(form.fields.map((f) => f.id));
  for (const key of Object.keys(input.answers)) {
    if (!fieldIds.has(key)) errors[`answers.${key}`] = [ANSWER_MESSAGES.unknownField];
  }
  const given = { ...input.answers };
  const unanswered = (field: FormField | undefined): field is FormField =>
    field !== undefined && (given[field.id] === undefined || given[field.id] === null || given[field.id] === '');

  const emailField = form.fields.find((f) => f.field_type === 'email');
  if (unanswered(emailField) && input.email !== undefined) given[emailField.id] = input.email;
  const fieldEmail = emailField && typeof given[emailField.id] === 'string' ? (given[emailField.id] as string).trim() : undefined;
  const email = input.email ?? fieldEmail;
  const name = input.name ?? (email ? email.slice(0, email.lastIndexOf('@')) : '');
  const firstText = form.fields.find((f) => f.field_type === 'text');
  if (unanswered(firstText) && name !== '') given[firstText.id] = name;

  const answers: FormAnswer[] = [];
  for (const field of form.fields) {
    const checked = checkAnswer(field, given[field.id]);
    if ('error' in checked) errors[`answers.${field.id}`] = [checked.error];
    else if ('value' in checked) answers.push(answerOf(field, checked.value));
    else if (field.required) errors[`answers.${field.id}`] = [ANSWER_MESSAGES.required];
  }
  // The respondent must be identifiable: by `email`, or by an answer to the form's email field.
  if (email === undefined) {
    const key = emailField ? `answers.${emailField.id}` : 'email';
    errors[key] ??= [emailField ? ANSWER_MESSAGES.required : ANSWER_MESSAGES.emailMissing];
  }
  if (email === undefined || Object.keys(errors).length > 0) throw validationFailed(errors);
  return { answers, email, name };
}
