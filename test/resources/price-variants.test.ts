import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { unlinkPriceVariantExperience } from '../../src/resources/price-variants/operations.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf, type AccountState } from '../support/resources.js';

const activeGrants = (state: AccountState, pv: string, exp: string) =>
  state.grants.filter((g) => g.price_variant_id === pv && g.experience_id === exp && g.status === 'active');

describe('DELETE /v1/price_variants/{price_variant_id}/experiences/{id} (spec §4.10)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const unlink = (pv: string, id: string, token: string = KEYS.free) =>
    client(app).delete(`/v1/price_variants/${pv}/experiences/${id}`).set(bearer(token));

  it('§4.10, §2.9: unlinks by experience id and answers the experience link deletion result', async () => {
    const res = await unlink(PINNED.free.priceVariant, PINNED.free.course);
    expectSuccess(res, unlinkPriceVariantExperience);
    expect(res.body).toEqual({
      price_variant: PINNED.free.priceVariant,
      experience: PINNED.free.course,
      object: 'experience_link',
      deleted: true,
    });
  });

  it('§4.10: removes the link and revokes the grants it gave; active_grants_count drops by as many', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    const revoked = activeGrants(before, PINNED.free.priceVariant, PINNED.free.course);
    expect(revoked.length).toBeGreaterThan(0);
    const count = before.experiences.find((e) => e.id === PINNED.free.course)!.active_grants_count;

    await unlink(PINNED.free.priceVariant, PINNED.free.course);

    const after = await stateOf(app, ACCOUNTS.free);
    expect(after.price_variants.find((v) => v.id === PINNED.free.priceVariant)!.experience_ids).toEqual([PINNED.free.workshop]);
    for (const grant of revoked) {
      expect(after.grants.find((g) => g.id === grant.id)).toMatchObject({ status: 'revoked', revoked_at: FROZEN_AT });
    }
    const experience = after.experiences.find((e) => e.id === PINNED.free.course)!;
    expect(experience.active_grants_count).toBe(count - revoked.length);
    expect(experience.active_grants_count).toBe(
      after.grants.filter((g) => g.experience_id === PINNED.free.course && g.status === 'active').length,
    );
  });

  it('§4.10: access granted through other price variants, and to other experiences, is kept', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    const untouched = before.grants.filter(
      (g) => g.status === 'active' && !(g.price_variant_id === PINNED.free.priceVariant && g.experience_id === PINNED.free.course),
    );
    await unlink(PINNED.free.priceVariant, PINNED.free.course);
    const after = await stateOf(app, ACCOUNTS.free);
    for (const grant of untouched) expect(after.grants.find((g) => g.id === grant.id)!.status).toBe('active');
    expect(activeGrants(after, PINNED.free.priceVariant, PINNED.free.workshop).length).toBeGreaterThan(0);
  });

  it('§4.10: the experience may be named by its slug', async () => {
    const res = await unlink(PINNED.free.priceVariant, PINNED.workshopSlug);
    expectSuccess(res, unlinkPriceVariantExperience);
    expect(res.body.experience).toBe(PINNED.free.workshop);
    const after = await stateOf(app, ACCOUNTS.free);
    expect(activeGrants(after, PINNED.free.priceVariant, PINNED.free.workshop)).toEqual([]);
  });

  it('§4.10: unlinking twice is 404: there is no such link any more, and the count does not drop again', async () => {
    await unlink(PINNED.free.priceVariant, PINNED.free.course);
    const between = await stateOf(app, ACCOUNTS.free);
    expectError(await unlink(PINNED.free.priceVariant, PINNED.courseSlug), 'resource_missing', {
      param: 'id',
      message: `Experience '${PINNED.free.course}' is not linked to price variant '${PINNED.free.priceVariant}'.`,
    });
    expect(await stateOf(app, ACCOUNTS.free)).toEqual(between);
  });

  it('§4.10: an experience that exists but was never linked is 404', async () => {
    const state = await stateOf(app, ACCOUNTS.free);
    const variant = state.price_variants.find((v) => v.id === PINNED.free.priceVariant)!;
    const unlinked = state.experiences.find((e) => !variant.experience_ids.includes(e.id))!;
    expectError(await unlink(PINNED.free.priceVariant, unlinked.id), 'resource_missing', {
      param: 'id',
      message: `Experience '${unlinked.id}' is not linked to price variant '${PINNED.free.priceVariant}'.`,
    });
  });

  it('§4.10: an unknown experience id or slug is 404 naming id', async () => {
    expectError(await unlink(PINNED.free.priceVariant, 'exp_nope'), 'resource_missing', {
      param: 'id',
      message: "No such experience: 'exp_nope'.",
    });
    expectError(await unlink(PINNED.free.priceVariant, 'no-such-slug'), 'resource_missing', {
      param: 'id',
      message: "No such experience: 'no-such-slug'.",
    });
  });

  it('§4.10: an unknown or raw price variant id is 404 naming price_variant_id', async () => {
    expectError(await unlink('pv_nope', PINNED.free.course), 'resource_missing', {
      param: 'price_variant_id',
      message: "No such price variant: 'pv_nope'.",
    });
    expectError(await unlink('123', PINNED.free.course), 'resource_missing', {
      param: 'price_variant_id',
      message: "No such object: '123'.",
    });
  });

  it("tenancy: another account's price variant is 404 and its grants stay active", async () => {
    const before = await stateOf(app, ACCOUNTS.paid);
    expectError(await unlink(PINNED.paid.priceVariant, PINNED.courseSlug), 'resource_missing', {
      param: 'price_variant_id',
      message: `No such price variant: '${PINNED.paid.priceVariant}'.`,
    });
    expect(await stateOf(app, ACCOUNTS.paid)).toEqual(before);
  });

  it("tenancy: another account's experience id is 404 even on one's own price variant", async () => {
    expectError(await unlink(PINNED.free.priceVariant, PINNED.paid.course), 'resource_missing', {
      param: 'id',
      message: `No such experience: '${PINNED.paid.course}'.`,
    });
  });

  it("tenancy: a slug resolves in the caller's account only: unlinking by slug leaves the other account's same slug alone", async () => {
    const paidBefore = await stateOf(app, ACCOUNTS.paid);
    await client(app).delete(`/v1/price_variants/${PINNED.paid.priceVariant}/experiences/${PINNED.courseSlug}`).set(bearer(KEYS.paid));
    expect(activeGrants(await stateOf(app, ACCOUNTS.paid), PINNED.paid.priceVariant, PINNED.paid.course)).toEqual([]);
    expect(activeGrants(await stateOf(app, ACCOUNTS.free), PINNED.free.priceVariant, PINNED.free.course).length).toBeGreaterThan(0);
    expect(paidBefore.experiences.find((e) => e.id === PINNED.paid.course)!.active_grants_count).toBeGreaterThan(0);
  });

  it('tenancy: a tenant made through the admin API unlinks its own links', async () => {
    const tenant = await newTenant(app);
    const own = await stateOf(app, tenant.accountId);
    const variant = own.price_variants[0]!;
    const experience = own.experiences.find((e) => e.id === variant.experience_ids[0])!;
    const res = await unlink(variant.id, experience.slug, tenant.token);
    expectSuccess(res, unlinkPriceVariantExperience);
    expectError(await unlink(variant.id, experience.slug), 'resource_missing', {
      param: 'price_variant_id',
      message: `No such price variant: '${variant.id}'.`,
    });
  });
});
