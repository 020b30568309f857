/** `form_submission.created` (contract §4.3). */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { formSubmissionSchema, formSubmissionView } from './schemas.js';

export const formSubmissionCreated = defineEvent({
  type: 'form_submission.created',
  description: 'A form submission was created (`POST /v1/form_submissions`).',
  object: formSubmissionSchema,
  sample: ({ account, ids, now }) => {
    const found = newestRecord(account.collection('form_submissions').values());
    if (found) return formSubmissionView(found);
    const form = account.collection('forms').values()[0];
    const customer = account.collection('customers').values()[0];
    return formSubmissionView({
      id: ids.next('fsub'),
      object: 'form_submission',
      form_id: form?.id ?? ids.next('frm'),
      answers: [],
      respondent_type: 'customer',
      respondent_id: customer?.id ?? ids.next('cus'),
      created_at: isoTimestamp(now),
    });
  },
});
