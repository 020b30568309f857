/** `discount.deleted` (contract §4.3): the deletion result `DELETE /v1/discounts/{id}` answers. */
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { discountDeletionSchema, discountDeletionView } from './operations.js';

export const discountDeleted = defineEvent({
  type: 'discount.deleted',
  description: 'A discount was deleted (`DELETE /v1/discounts/{id}`).',
  object: discountDeletionSchema,
  sample: ({ account, ids }) => discountDeletionView(newestRecord(account.collection('discounts').values())?.id ?? ids.next('disc')),
});
