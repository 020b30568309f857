/**
 * Idempotent replay of every resource write (spec §4 common rules, §7.3.3, §8): the same key and
 * payload replays the first response without running the operation again; another payload is refused.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/errors/messages.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../../support/harness.js';
import { expectSuccess, PINNED, RESOURCE_REQUESTS, send, stateOf, type ResourceRequest } from '../../support/resources.js';

const writes = RESOURCE_REQUESTS.filter((r) => r.op.method !== 'GET').map(
  (r) => [`${r.op.operationId} (spec §${r.op.specSection})`, r] as const,
);
const withKey = (key: string) => ({ ...bearer(KEYS.free), 'Idempotency-Key': key });

/** A changed body field per write that has a body. */
const CHANGED: Record<string, Record<string, unknown>> = {
  createFormSubmission: { email: 'someone.else@example.com' },
  sendConversions: { test_code: 'TEST1' },
  updateInbox: { display_name: 'Other' },
  createEventSession: { title: 'Another title' },
};

/** The same operation with another payload: another body, or (deletes) the record named by id instead of slug. */
function otherPayload(request: ResourceRequest): ResourceRequest {
  if (request.body) return { ...request, body: { ...request.body, ...CHANGED[request.op.operationId] } };
  return {
    ...request,
    path: request.path.replace(PINNED.discountSlug, PINNED.free.discount).replace(PINNED.courseSlug, PINNED.free.course),
  };
}

describe('Idempotency-Key on the resource writes (spec §8)', () => {
  it.each(writes)('§8 %s: the same key and payload replays the first response and changes nothing more', async (_, request) => {
    const app = makeApp();
    const first = await send(app, request, withKey('retry-1'));
    expectSuccess(first, request.op);
    const afterFirst = await stateOf(app, ACCOUNTS.free);
    const replay = await send(app, request, withKey('retry-1'));
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await stateOf(app, ACCOUNTS.free)).toEqual(afterFirst);
  });

  it.each(writes)('§7.3.3 %s: the same key with another payload is 400 idempotency_key_reused and runs nothing', async (_, request) => {
    const app = makeApp();
    await send(app, request, withKey('retry-2'));
    const afterFirst = await stateOf(app, ACCOUNTS.free);
    const res = await send(app, otherPayload(request), withKey('retry-2'));
    expectError(res, 'idempotency_key_reused', { param: 'Idempotency-Key', message: MESSAGES.idempotencyKeyReused('retry-2') });
    expect(await stateOf(app, ACCOUNTS.free)).toEqual(afterFirst);
  });

  it('§8: a replayed form submission does not create a second submission, customer or delivery', async () => {
    const app = makeApp();
    const body = { form_id: PINNED.free.newsletterForm, email: 'once@example.com' };
    const first = await client(app).post('/v1/form_submissions').set(withKey('signup-1')).send(body);
    await client(app).post('/v1/form_submissions').set(withKey('signup-1')).send(body);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.form_submissions.map((s) => s.id)).toEqual([first.body.id]);
    expect(state.deliveries).toHaveLength(1);
    expect(state.customers.filter((c) => c.email === 'once@example.com')).toHaveLength(1);
    // Without a key the same body is a new submission (with a new delivery) for the same customer.
    await client(app).post('/v1/form_submissions').set(bearer(KEYS.free)).send(body);
    expect((await stateOf(app, ACCOUNTS.free)).deliveries).toHaveLength(2);
  });

  it('§8: a replayed inbox update answers the first result even after a later update, and does not undo it', async () => {
    const app = makeApp();
    const path = `/v1/email/inboxes/${PINNED.free.inbox}`;
    const first = await client(app).patch(path).set(withKey('rename-1')).send({ display_name: 'First' });
    await client(app).patch(path).set(bearer(KEYS.free)).send({ display_name: 'Second' });
    const replay = await client(app).patch(path).set(withKey('rename-1')).send({ display_name: 'First' });
    expect(replay.text).toBe(first.text);
    expect(replay.body.display_name).toBe('First');
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.inboxes.find((i) => i.id === PINNED.free.inbox)!.display_name).toBe('Second');
  });

  it('§8: a replayed delete answers the deletion result again instead of 404', async () => {
    const app = makeApp();
    const first = await client(app).delete(`/v1/discounts/${PINNED.discountSlug}`).set(withKey('del-1'));
    const replay = await client(app).delete(`/v1/discounts/${PINNED.discountSlug}`).set(withKey('del-1'));
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expectError(await client(app).delete(`/v1/discounts/${PINNED.discountSlug}`).set(bearer(KEYS.free)), 'resource_missing', {
      param: 'id',
      message: `No such discount: '${PINNED.discountSlug}'.`,
    });
  });

  it('§8: a 404 the operation decided is remembered too: the key keeps answering it after the record appears elsewhere', async () => {
    const app = makeApp();
    const path = `/v1/price_variants/${PINNED.free.priceVariant}/experiences/${PINNED.free.course}`;
    await client(app).delete(path).set(bearer(KEYS.free));
    const first = await client(app).delete(path).set(withKey('unlink-1'));
    expectError(first, 'resource_missing', {
      param: 'id',
      message: `Experience '${PINNED.free.course}' is not linked to price variant '${PINNED.free.priceVariant}'.`,
    });
    const replay = await client(app).delete(path).set(withKey('unlink-1'));
    expect(replay.status).toBe(404);
    expect(replay.text).toBe(first.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('§8: keys are scoped to the account: the paid account may reuse a key the free account used', async () => {
    const app = makeApp();
    const free = await client(app).delete(`/v1/discounts/${PINNED.discountSlug}`).set(withKey('shared'));
    const paid = await client(app)
      .delete(`/v1/discounts/${PINNED.discountSlug}`)
      .set({ ...bearer(KEYS.paid), 'Idempotency-Key': 'shared' });
    expect(free.body.id).toBe(PINNED.free.discount);
    expect(paid.body.id).toBe(PINNED.paid.discount);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
  });
});
