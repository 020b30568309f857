/** FormSubmission of spec §2.4 and the create body of §4.5. */
import { openObjectSchema, prefixedIdSchema, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { viewFrom } from '../view.js';
import type { FormSubmissionRecord } from '../../store/records.js';

export interface CreateFormSubmissionBody {
  form_id: string;
  email?: string;
  answers: Record<string, unknown>;
  name?: string;
}

export const createFormSubmissionBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['form_id'],
  properties: {
    form_id: prefixedIdSchema('frm', "The form's prefixed id (`frm_…`); raw ids are refused."),
    email: {
      type: 'string',
      format: 'email',
      maxLength: 254,
      description: "The respondent's email: matches or creates the customer, and fills the form's email field when answers do not.",
    },
    answers: openObjectSchema({
      default: {},
      maxProperties: 100,
      description:
        'Field id -> value. A string for most fields, a number for `number`, a list of choices for a `checkbox` with options, ' +
        'true/false for a single checkbox.',
    }),
    name: {
      type: 'string',
      description: "Defaults to the email's local part (also when empty); fills the form's first text field when answers do not.",
    },
  },
};

const answerSchema: JsonSchema = {
  title: 'FormSubmissionAnswer',
  type: 'object',
  additionalProperties: false,
  required: ['field_type', 'label', 'required', 'value', 'options'],
  properties: {
    field_type: { enum: ['email', 'text', 'textarea', 'number', 'phone', 'url', 'select', 'checkbox'] },
    label: { type: 'string' },
    required: { type: 'boolean' },
    value: { type: 'string' },
    options: { type: 'array', items: { type: 'string' } },
  },
};

export const formSubmissionSchema: JsonSchema = {
  title: 'FormSubmission',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'answers', 'respondent_type', 'created_at', 'respondent_id', 'form_id'],
  properties: {
    id: { type: 'string', pattern: '^fsub_' },
    object: { const: 'form_submission' },
    answers: { type: 'array', items: answerSchema },
    respondent_type: { const: 'customer' },
    created_at: timestampSchema,
    respondent_id: { type: 'string', pattern: '^cus_' },
    form_id: { type: 'string', pattern: '^frm_' },
  },
};

export const formSubmissionView = viewFrom<FormSubmissionRecord>(formSubmissionSchema);
