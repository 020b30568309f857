/** `customer.created` (contract §4.3): a form submission with a new email made a customer. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { customerSchema, customerView } from './schemas.js';

export const customerCreated = defineEvent({
  type: 'customer.created',
  description: 'A customer was created, by a form submission with a new email.',
  object: customerSchema,
  sample: ({ account, ids, now }) =>
    customerView(
      newestRecord(account.collection('customers').values()) ?? {
        id: ids.next('cus'),
        object: 'customer',
        name: 'Sample Customer',
        email: 'sample.customer@example.com',
        created_at: isoTimestamp(now),
      },
    ),
});
