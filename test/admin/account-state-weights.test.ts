/**
 * `GET /__admin/accounts/{id}` and its records listing bound their answers by what the shown records
 * weigh (docs/admin-api.md "Account state"). A record the account wrote was weighed when written
 * (the record budget keeps that weight); weighing it again on every read walked every string of it
 * (a megabyte of metadata per inbox updated). The weights are read from the store; only what the
 * store never weighed (a job's summary, a seeded record of a collection the account never wrote) is
 * weighed. Counted in calls, never in time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';

/**
 * The strings weighed from now on: weighing a string starts with its UTF-8 length (src/store/json-bytes.ts).
 * A spy on the global `Buffer`, which holds whatever modules the worker shares between test files.
 */
function weighedStrings(): string[] {
  const seen: string[] = [];
  const byteLength = Buffer.byteLength.bind(Buffer);
  vi.spyOn(Buffer, 'byteLength').mockImplementation((value: unknown, encoding?: BufferEncoding) => {
    if (typeof value === 'string') seen.push(value);
    return byteLength(value as string, encoding);
  });
  return seen;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the account state reads the weights the store keeps', () => {
  it('contract §3.2: an inbox updated with 200 KB of metadata is not weighed again by the state or the listing', async () => {
    const app = makeApp();
    const api = client(app);
    const note = 'x'.repeat(200_000);
    const weighed = weighedStrings();
    const patched = await api.patch('/v1/email/inboxes/inbox_paid_support').set(bearer(KEYS.paid)).send({ metadata: { note } });
    expect(patched.status).toBe(200);
    const isLarge = (value: string) => value === note;
    // The write weighed it, for the record budget.
    expect(weighed.filter(isLarge).length).toBeGreaterThan(0);
    weighed.length = 0;

    const state = await api.get(`/__admin/accounts/${ACCOUNTS.paid}`);
    expect(state.status).toBe(200);
    const inbox = (state.body.state.inboxes as Array<{ id: string; metadata: { note?: string } }>).find(
      (i) => i.id === 'inbox_paid_support',
    );
    expect(inbox?.metadata.note).toBe(note);
    const listing = await api.get(`/__admin/accounts/${ACCOUNTS.paid}/records/inboxes`);
    expect(listing.status).toBe(200);
    expect((listing.body.data as Array<{ id: string }>).some((i) => i.id === 'inbox_paid_support')).toBe(true);
    expect(weighed.filter(isLarge)).toHaveLength(0);
  });

  it("the weight the store keeps for a record it holds is its JSON's, as the answer bound needs it", async () => {
    const app = makeApp();
    const api = client(app);
    await api
      .patch('/v1/email/inboxes/inbox_paid_support')
      .set(bearer(KEYS.paid))
      .send({ metadata: { note: 'é"\\\n'.repeat(1000) } });
    await api.patch('/v1/email/inboxes/inbox_paid_support').set(bearer(KEYS.paid)).send({ display_name: 'Support €' });
    const inboxes = app.sandbox.world.store.forAccount(ACCOUNTS.paid)!.collection('inboxes');
    expect(inboxes.size).toBeGreaterThan(0);
    for (const record of inboxes.values()) expect(inboxes.bytes(record.id)).toBe(Buffer.byteLength(JSON.stringify(record)));
  });
});
