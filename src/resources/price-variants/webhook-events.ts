/** `experience_link.deleted` (contract §4.3): the deletion result of unlinking an experience from a price variant. */
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { experienceLinkDeletionSchema, experienceLinkDeletionView } from './operations.js';

export const experienceLinkDeleted = defineEvent({
  type: 'experience_link.deleted',
  description: 'An experience was unlinked from a price variant (`DELETE /v1/price_variants/{price_variant_id}/experiences/{id}`).',
  object: experienceLinkDeletionSchema,
  sample: ({ account, ids }) => {
    const variant = newestRecord(account.collection('price_variants').values(), (record) => record.experience_ids.length > 0);
    // Ids drawn in this order (variant, then experience): the bytes of a triggered sample stay as they were.
    const variantId = variant?.id ?? ids.next('pv');
    return experienceLinkDeletionView(variantId, variant?.experience_ids[0] ?? ids.next('exp'));
  },
});
