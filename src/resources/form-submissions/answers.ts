/**
 * Turns the `answers` of a form submission (field id -> value) into the answer list of spec §2.4,
 * checking every value against its field's type, required flag and options. `email` and `name`
 * fill the email field and the first text field when no answer is given for them (spec §4.5).
 * Every problem is collected and reported at once, keyed `answers.<field id>`.
 *
 * Tolerant where the spec is silent: §2.4 makes every answer `value` a string, so a
 * client may send any value in the form a browser posts it. Numbers and booleans count as their
 * string form, an empty string as unanswered, and a single checkbox takes the words a form posts
 * for it. Refused: what cannot be the field's answer (a list or object for a text field, a word
 * that is not a yes or a no for a checkbox, a choice outside the options).
 */
import { validationFailed } from '../../errors/api-error.js';
import type { FieldErrors } from '../../errors/api-error.js';
import type { FormAnswer, FormField, FormRecord } from '../../store/records.js';

export const ANSWER_MESSAGES = {
  unknownField: 'is not a field of this form',
  required: 'is required',
  consentRequired: 'must be checked',
  notString: 'must be a string (or a number or boolean, taken as text)',
  tooLong: (max: number) => `must be at most ${max} characters`,
  email: 'must be a valid email address',
  number: 'must be a number',
  phone: 'must be a phone number (7 to 15 digits, optionally starting with +)',
  url: 'must be an http or https URL',
  option: (options: string[]) => `must be one of: ${options.join(', ')}`,
  choices: (options: string[]) => `must be a list of distinct choices from: ${options.join(', ')}`,
  consent: `must be true or false (or one of: ${['true', 'false', 'on', 'off', 'yes', 'no', '1', '0'].join(', ')}, or the checkbox's label)`,
  emailMissing: 'is required: the form has no email field, so the respondent is identified by this address',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `{ value }` for an answer, `{ error }` for a bad one, `{}` when the field is left unanswered. */
type Checked = { value: string } | { error: string } | Record<string, never>;

/** The string form of a scalar answer: strings as sent, numbers and booleans as JSON writes them; lists and objects have none. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Nothing to record: absent, null, or blank (what a form posts for a field left empty). */
export function isUnanswered(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** A text answer, trimmed; `max` bounds only the typed fields (an address, a phone, a URL), not free text. */
function text(value: unknown, max = Infinity): Checked {
  const sent = scalarText(value);
  if (sent === undefined) return { error: ANSWER_MESSAGES.notString };
  const trimmed = sent.trim();
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

// What forms post for one checkbox: `on` is a browser's value for a box without a `value` attribute.
const CHECKED = new Set(['true', 'on', 'yes', '1']);
const UNCHECKED = new Set(['false', 'off', 'no', '0']);

/** A single checkbox's answer as a boolean; its own label counts as checked (some form builders post it). */
function boxState(field: FormField, value: unknown): boolean | undefined {
  const word = scalarText(value)?.trim().toLowerCase();
  if (word === undefined) return undefined;
  if (CHECKED.has(word) || word === field.label.trim().toLowerCase()) return true;
  return UNCHECKED.has(word) ? false : undefined;
}

function checkbox(field: FormField, value: unknown): Checked {
  // Without options a checkbox is one box (consent): checked or not.
  if (field.options.length === 0) {
    const checked = boxState(field, value);
    if (checked === undefined) return { error: ANSWER_MESSAGES.consent };
    if (!checked && field.required) return { error: ANSWER_MESSAGES.consentRequired };
    return { value: String(checked) };
  }
  const sent = Array.isArray(value) ? value : [value];
  const choices = sent.map(scalarText);
  const valid = new Set(choices).size === choices.length && choices.every((c) => c !== undefined && field.options.includes(c));
  if (!valid) return { error: ANSWER_MESSAGES.choices(field.options) };
  if (choices.length === 0) return {};
  // Stored as one string (spec §2.4: value is a string), choices in the form's order.
  return { value: field.options.filter((o) => choices.includes(o)).join(', ') };
}

export function checkAnswer(field: FormField, value: unknown): Checked {
  if (isUnanswered(value)) return {};
  switch (field.field_type) {
    case 'email':
      return matching(value, 254, (s) => EMAIL.test(s), ANSWER_MESSAGES.email);
    case 'text':
    case 'textarea':
      return text(value);
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? { value: String(n) } : { error: ANSWER_MESSAGES.number };
    }
    case 'phone':
      return matching(value, 32, (s) => /^\+?[0-9 ().-]+$/.test(s) && /^(\D*\d){7,15}\D*$/.test(s), ANSWER_MESSAGES.phone);
    case 'url':
      return matching(value, 2048, isHttpUrl, ANSWER_MESSAGES.url);
    case 'select': {
      const choice = scalarText(value);
      return choice !== undefined && field.options.includes(choice) ? { value: choice } : { error: ANSWER_MESSAGES.option(field.options) };
    }
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
  const unanswered = (field: FormField | undefined): field is FormField => field !== undefined && isUnanswered(given[field.id]);

  const emailField = form.fields.find((f) => f.field_type === 'email');
  if (unanswered(emailField) && input.email !== undefined) given[emailField.id] = input.email;
  const fieldEmail = emailField && typeof given[emailField.id] === 'string' ? (given[emailField.id] as string).trim() : undefined;
  const email = input.email ?? fieldEmail;
  // An empty name is what a form posts when its name box is left blank: the default applies.
  const name = input.name?.trim() || (email ? email.slice(0, email.lastIndexOf('@')) : '');
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
