/** Price-variant links: spec §4.10, §2.9. Unlinking revokes the access the link granted. */
import { ApiError } from '../../errors/api-error.js';
import { prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation, type JsonSchema } from '../../operations/types.js';
import { findByIdOrSlug, required } from '../lookup.js';
import { revokeGrants } from './grants.js';

export const experienceLinkDeletionSchema: JsonSchema = {
  title: 'ExperienceLinkDeletion',
  type: 'object',
  additionalProperties: false,
  required: ['price_variant', 'experience', 'object', 'deleted'],
  properties: {
    price_variant: { type: 'string', pattern: '^pv_' },
    experience: { type: 'string', pattern: '^exp_' },
    object: { const: 'experience_link' },
    deleted: { const: true },
  },
};

/** What unlinking answers, and what its `experience_link.deleted` event carries. */
export function experienceLinkDeletionView(priceVariantId: string, experienceId: string) {
  return { price_variant: priceVariantId, experience: experienceId, object: 'experience_link' as const, deleted: true as const };
}

export const unlinkPriceVariantExperience = defineOperation<undefined, Record<string, never>, { price_variant_id: string; id: string }>({
  operationId: 'unlinkPriceVariantExperience',
  method: 'DELETE',
  path: '/price_variants/{price_variant_id}/experiences/{id}',
  tag: 'Price variants',
  specSection: '4.10',
  summary: 'Unlink experience from price variant',
  description:
    'Removes the link between a price variant and an experience (named by id or slug) and revokes the access granted through it: ' +
    "those grants become `revoked` and the experience's `active_grants_count` drops.",
  params: {
    type: 'object',
    required: ['price_variant_id', 'id'],
    properties: {
      price_variant_id: prefixedIdSchema('pv', 'The price variant.'),
      id: { type: 'string', minLength: 1, maxLength: 255, description: "The experience's id (`exp_…`) or slug." },
    },
  },
  success: { status: 200, description: 'The link deletion result.', schema: experienceLinkDeletionSchema },
  errors: [400, 401, 403, 404, 429, 500],
  handler({ params, store, sandbox, events }) {
    const variant = required(
      store.collection('price_variants').get(params.price_variant_id),
      'price variant',
      params.price_variant_id,
      'price_variant_id',
    );
    const experience = required(findByIdOrSlug(store.collection('experiences'), 'exp', params.id), 'experience', params.id, 'id');
    if (!variant.experience_ids.includes(experience.id)) {
      throw new ApiError('resource_missing', {
        param: 'id',
        message: `Experience '${experience.id}' is not linked to price variant '${variant.id}'.`,
      });
    }
    // Checked on the records read; changed on the account's own copy (the one read may be shared and frozen).
    store.write('price_variants').update(variant.id, (record) => {
      record.experience_ids = record.experience_ids.filter((id) => id !== experience.id);
    });
    revokeGrants(store, variant.id, experience.id, sandbox.timestamp());
    const deletion = experienceLinkDeletionView(variant.id, experience.id);
    events.emit('experience_link.deleted', deletion);
    return { body: deletion };
  },
});

export const priceVariantOperations = [unlinkPriceVariantExperience];
