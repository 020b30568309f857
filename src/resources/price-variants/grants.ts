/**
 * Grants: access to an experience given to a customer through a price variant. An experience's
 * `active_grants_count` is always recomputed from its grants, never adjusted by hand, so the two
 * cannot drift apart.
 */
import type { AccountStore } from '../../store/store.js';

export function recountActiveGrants(store: AccountStore, experienceId: string): number {
  const active = store.collection('grants').filter((g) => g.experience_id === experienceId && g.status === 'active').length;
  // Written only when it changes, so a recount that finds nothing new does not make the account own its experiences.
  if (store.collection('experiences').get(experienceId)?.active_grants_count !== active) {
    store.write('experiences').update(experienceId, (experience) => {
      experience.active_grants_count = active;
    });
  }
  return active;
}

/** Revokes every active grant given through `priceVariantId` for `experienceId`; returns how many. */
export function revokeGrants(store: AccountStore, priceVariantId: string, experienceId: string, at: string): number {
  const matches = (g: { price_variant_id: string; experience_id: string; status: string }) =>
    g.price_variant_id === priceVariantId && g.experience_id === experienceId && g.status === 'active';
  const revoked = store.collection('grants').filter(matches);
  if (revoked.length > 0) {
    const grants = store.write('grants');
    for (const { id } of revoked) {
      grants.update(id, (grant) => {
        grant.status = 'revoked';
        grant.revoked_at = at;
      });
    }
  }
  recountActiveGrants(store, experienceId);
  return revoked.length;
}
