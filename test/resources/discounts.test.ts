import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { deleteDiscount } from '../../src/resources/discounts/operations.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

describe('DELETE /v1/discounts/{id} (spec §4.11)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const remove = (id: string, token: string = KEYS.free) => client(app).delete(`/v1/discounts/${id}`).set(bearer(token));

  it('§4.11, §2.9: deletes by id and answers the discount deletion result', async () => {
    const res = await remove(PINNED.free.discount);
    expectSuccess(res, deleteDiscount);
    expect(res.body).toEqual({ id: PINNED.free.discount, object: 'discount', deleted: true });
  });

  it('§4.11: the discount is gone afterwards: absent from the account state, and a second delete is 404', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    await remove(PINNED.free.discount);
    const after = await stateOf(app, ACCOUNTS.free);
    expect(after.discounts.map((d) => d.id)).toEqual(before.discounts.map((d) => d.id).filter((id) => id !== PINNED.free.discount));
    expectError(await remove(PINNED.free.discount), 'resource_missing', {
      param: 'id',
      message: `No such discount: '${PINNED.free.discount}'.`,
    });
    expectError(await remove(PINNED.discountSlug), 'resource_missing', {
      param: 'id',
      message: `No such discount: '${PINNED.discountSlug}'.`,
    });
  });

  it('§4.11: deletes by slug and answers the id', async () => {
    const res = await remove(PINNED.discountSlug);
    expectSuccess(res, deleteDiscount);
    expect(res.body).toEqual({ id: PINNED.free.discount, object: 'discount', deleted: true });
    expect((await stateOf(app, ACCOUNTS.free)).discounts.some((d) => d.slug === PINNED.discountSlug)).toBe(false);
  });

  it('§4.11: a seeded discount can be deleted by its seeded slug', async () => {
    const [, other] = (await stateOf(app, ACCOUNTS.free)).discounts;
    const res = await remove(other!.slug);
    expect(res.body).toEqual({ id: other!.id, object: 'discount', deleted: true });
  });

  it('§4.11: an unknown id or slug is 404 naming id, and nothing is deleted', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    expectError(await remove('disc_nope'), 'resource_missing', { param: 'id', message: "No such discount: 'disc_nope'." });
    expectError(await remove('no-such-code'), 'resource_missing', { param: 'id', message: "No such discount: 'no-such-code'." });
    expect((await stateOf(app, ACCOUNTS.free)).discounts).toEqual(before.discounts);
  });

  it("tenancy: another account's discount id is 404 and it is not deleted", async () => {
    expectError(await remove(PINNED.paid.discount), 'resource_missing', {
      param: 'id',
      message: `No such discount: '${PINNED.paid.discount}'.`,
    });
    expect((await stateOf(app, ACCOUNTS.paid)).discounts.map((d) => d.id)).toContain(PINNED.paid.discount);
  });

  it("tenancy: a slug names the caller's discount only; the other account's same slug survives", async () => {
    const res = await remove(PINNED.discountSlug);
    expect(res.body.id).toBe(PINNED.free.discount);
    const paid = await stateOf(app, ACCOUNTS.paid);
    expect(paid.discounts.find((d) => d.slug === PINNED.discountSlug)!.id).toBe(PINNED.paid.discount);
  });

  it('tenancy: a tenant made through the admin API deletes its own discounts only', async () => {
    const tenant = await newTenant(app);
    const [own] = (await stateOf(app, tenant.accountId)).discounts;
    expectError(await remove(own!.id), 'resource_missing', { param: 'id', message: `No such discount: '${own!.id}'.` });
    expectSuccess(await remove(own!.id, tenant.token), deleteDiscount);
    expectError(await remove(PINNED.free.discount, tenant.token), 'resource_missing', {
      param: 'id',
      message: `No such discount: '${PINNED.free.discount}'.`,
    });
  });
});
