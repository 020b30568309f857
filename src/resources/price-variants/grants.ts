/**
 * Grants: access to an experience given to a customer through a price variant. An experience's
 * `active_grants_count` is always recomputed from its grants, never adjusted by hand, so the two
 * cannot drift apart.
 */
import type { AccountStore } from '../../store/store.js';

export function recountActiveGrants(store: AccountStore, experienceId: string): number {
  const experience = store.collection('experiences').get(experienceId);
  const active = store.collection('grants').filter((g) => g.experience_id === experienceId && g.status === 'active').length;
  if (experience) experience.active_grants_count = active;
  return active;
}

/** Revokes every active grant given through `priceVariantId` for `experienceId`; returns how many. */
export function revokeGrants(store: AccountStore, priceVariantId: string, experienceId: string, at: string): number {
  const revoked = store
    .collection('grants')
    .filter((g) => g.price_variant_id === priceVariantId && g.experience_id === experienceId && g.status === 'active');
  for (const grant of revoked) {
    grant.status = 'revoked';
    grant.revoked_at = at;
  }
  recountActiveGrants(store, experienceId);
  return revoked.length;
}
