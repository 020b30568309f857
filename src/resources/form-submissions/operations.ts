/**
 * Form submissions: spec §4.5, §2.4, §6. A submission finds or creates the customer by email, who
 * becomes the respondent, and records the lead-magnet delivery it triggers.
 */
import { defineOperation } from '../../operations/types.js';
import type { DeliveryRecord, FormSubmissionRecord } from '../../store/records.js';
import { findCustomer, newCustomer } from '../customers/match.js';
import { customerView } from '../customers/schemas.js';
import { draftId } from '../draft-id.js';
import { required } from '../lookup.js';
import { resolveAnswers } from './answers.js';
import { createFormSubmissionBodySchema, formSubmissionSchema, formSubmissionView, type CreateFormSubmissionBody } from './schemas.js';

export const createFormSubmission = defineOperation<CreateFormSubmissionBody>({
  operationId: 'createFormSubmission',
  method: 'POST',
  path: '/form_submissions',
  tag: 'Form submissions',
  specSection: '4.5',
  summary: 'Create form submission',
  description:
    'Submits a response to a lead-magnet form. The customer is created or matched by email and becomes the respondent; ' +
    'the delivery of the lead magnet is triggered. Answers are checked against each field (type, required, options).',
  body: createFormSubmissionBodySchema,
  bodyRequired: true,
  success: { status: 201, description: 'The new form submission.', schema: formSubmissionSchema },
  errors: [400, 401, 403, 404, 422, 429, 500],
  handler({ body, store, sandbox, events }) {
    const form = required(store.collection('forms').get(body.form_id), 'form', body.form_id, 'form_id');
    const { answers, email, name } = resolveAnswers(form, body);
    const existing = findCustomer(store, email);
    const now = sandbox.timestamp();
    // The customer (when new), the submission and its delivery are written together or not at all.
    const records = (idOf: (prefix: string) => string) => {
      const customer = existing ?? newCustomer(idOf('cus'), email, name, now);
      const submission: FormSubmissionRecord = {
        id: idOf('fsub'),
        object: 'form_submission',
        form_id: form.id,
        answers,
        respondent_type: 'customer',
        respondent_id: customer.id,
        created_at: now,
      };
      const delivery: DeliveryRecord = {
        id: idOf('dlv'),
        object: 'delivery',
        form_id: form.id,
        form_submission_id: submission.id,
        customer_id: customer.id,
        email: customer.email,
        experience_id: form.lead_magnet_experience_id,
        channel: 'email',
        status: 'sent',
        created_at: now,
      };
      return { customer, submission, delivery };
    };
    const draft = records(draftId);
    store.admit('answers', existing ? [draft.submission, draft.delivery] : [draft.customer, draft.submission, draft.delivery]);
    // Ids drawn in the order they always were: customer, submission, delivery.
    const { customer, submission, delivery } = records((prefix) => sandbox.idsOf(store).next(prefix));
    if (!existing) {
      store.write('customers').insert(customer, 'email');
      events.emit('customer.created', customerView(customer));
    }
    store.write('form_submissions').insert(submission, 'answers');
    store.write('deliveries').insert(delivery, 'answers');
    const view = formSubmissionView(submission);
    events.emit('form_submission.created', view);
    return { body: view };
  },
});

export const formSubmissionOperations = [createFormSubmission];
