/** Discounts: spec §4.11, §2.9. A deleted discount is removed from the account: gone for every later call. */
import { defineOperation, type JsonSchema } from '../../operations/types.js';
import { findByIdOrSlug, required } from '../lookup.js';

export const discountDeletionSchema: JsonSchema = {
  title: 'DiscountDeletion',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'deleted'],
  properties: { id: { type: 'string', pattern: '^disc_' }, object: { const: 'discount' }, deleted: { const: true } },
};

/** What deleting a discount answers, and what its `discount.deleted` event carries. */
export function discountDeletionView(id: string): { id: string; object: 'discount'; deleted: true } {
  return { id, object: 'discount', deleted: true };
}

export const deleteDiscount = defineOperation<undefined, Record<string, never>, { id: string }>({
  operationId: 'deleteDiscount',
  method: 'DELETE',
  path: '/discounts/{id}',
  tag: 'Discounts',
  specSection: '4.11',
  summary: 'Delete discount',
  description: 'Deletes a discount, named by its id (`disc_…`) or its slug.',
  params: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 255, description: "The discount's id or slug." } },
  },
  success: { status: 200, description: 'The discount deletion result.', schema: discountDeletionSchema },
  errors: [400, 401, 403, 404, 429, 500],
  handler({ params, store, events }) {
    const discount = required(findByIdOrSlug(store.collection('discounts'), 'disc', params.id), 'discount', params.id, 'id');
    // Written only once found: a 404 leaves the account holding nothing new.
    store.write('discounts').delete(discount.id);
    const deletion = discountDeletionView(discount.id);
    events.emit('discount.deleted', deletion);
    return { body: deletion };
  },
});

export const discountOperations = [deleteDiscount];
