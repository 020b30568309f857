import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { mergeMetadata } from '../../src/resources/email/metadata.js';
import { listInboxMessages, updateInbox } from '../../src/resources/email/operations.js';
import type { MessageRecord } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

describe('PATCH /v1/email/inboxes/{id} (spec §4.7)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const patch = (id: string, body: unknown, token: string = KEYS.free) =>
    client(app)
      .patch(`/v1/email/inboxes/${id}`)
      .set(bearer(token))
      .send(body as object);

  it('§4.7: updates display_name and answers the Inbox', async () => {
    const res = await patch(PINNED.free.inbox, { display_name: 'Help desk' });
    expectSuccess(res, updateInbox);
    expect(res.body).toMatchObject({
      object: 'inbox',
      id: PINNED.free.inbox,
      display_name: 'Help desk',
      status: 'active',
      local_part: 'support',
    });
    expect(res.body.address).toBe(`support@${res.body.domain}`);
  });

  it('§4.7: metadata is merged into the existing object: keys sent replace, keys not sent stay', async () => {
    const before = (await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)!;
    expect(before.metadata).toMatchObject({ team: 'support' });
    await patch(PINNED.free.inbox, { metadata: { crm_id: 'hs_123', team: 'success' } });
    const res = await patch(PINNED.free.inbox, { metadata: { tier: { level: 2 } } });
    expectSuccess(res, updateInbox);
    expect(res.body.metadata).toEqual({ ...before.metadata, team: 'success', crm_id: 'hs_123', tier: { level: 2 } });
    expect(res.body.display_name).toBe(before.display_name);
  });

  it('§4.7: a metadata key sent as null is removed (the documented way to delete a key)', async () => {
    await patch(PINNED.free.inbox, { metadata: { crm_id: 'hs_123' } });
    const res = await patch(PINNED.free.inbox, { metadata: { crm_id: null, team: null } });
    expectSuccess(res, updateInbox);
    expect(res.body.metadata).not.toHaveProperty('crm_id');
    expect(res.body.metadata).not.toHaveProperty('team');
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.inboxes.find((i) => i.id === PINNED.free.inbox)!.metadata).toEqual(res.body.metadata);
  });

  it('§4.7: a metadata key named __proto__ stays an ordinary key (no prototype pollution)', () => {
    const merged = mergeMetadata({ team: 'support' }, JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.keys(merged)).toEqual(['team', '__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('§4.7: an empty body changes nothing', async () => {
    const before = (await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)!;
    const res = await patch(PINNED.free.inbox, {});
    expectSuccess(res, updateInbox);
    expect(res.body).toEqual(before);
  });

  it('spec §2.5 (metadata is free-form; §4.7): long keys, long values, many keys and any display name are stored as sent', async () => {
    const longKey = 'k'.repeat(41);
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`key_${i}`, i]));
    const metadata = { ...many, [longKey]: 'x', big: 'v'.repeat(600) };
    const res = await patch(PINNED.free.inbox, { display_name: '', metadata });
    expectSuccess(res, updateInbox);
    expect(res.body.display_name).toBe('');
    expect(res.body.metadata).toMatchObject(metadata);
    const long = await patch(PINNED.free.inbox, { display_name: 'n'.repeat(300) });
    expect((await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)!.display_name).toBe(long.body.display_name);
    expect(long.body.display_name).toHaveLength(300);
  });

  it('§4.7, §7.2: wrong types are 422 naming the field, and a rejected update changes nothing', async () => {
    const before = (await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)!;
    const res = await patch(PINNED.free.inbox, { display_name: 42, metadata: ['a'] });
    expectError(res, 'validation_failed', {
      param: 'display_name',
      errors: { display_name: ['must be of type string'], metadata: ['must be of type object'] },
    });
    expect((await stateOf(app, ACCOUNTS.free)).inboxes.find((i) => i.id === PINNED.free.inbox)).toEqual(before);
  });

  it('§4.7: an unknown inbox is 404 naming id; a raw id is 404 too', async () => {
    expectError(await patch('inbox_nope', { display_name: 'x' }), 'resource_missing', {
      param: 'id',
      message: "No such inbox: 'inbox_nope'.",
    });
    expectError(await patch('42', { display_name: 'x' }), 'resource_missing', { param: 'id', message: "No such object: '42'." });
  });

  it("tenancy: another account's inbox is 404 and stays unchanged", async () => {
    const before = (await stateOf(app, ACCOUNTS.paid)).inboxes.find((i) => i.id === PINNED.paid.inbox)!;
    expectError(await patch(PINNED.paid.inbox, { display_name: 'Hijacked' }), 'resource_missing', {
      param: 'id',
      message: `No such inbox: '${PINNED.paid.inbox}'.`,
    });
    expect((await stateOf(app, ACCOUNTS.paid)).inboxes.find((i) => i.id === PINNED.paid.inbox)).toEqual(before);
  });

  it('tenancy: a tenant made through the admin API cannot reach the default inboxes', async () => {
    const tenant = await newTenant(app);
    expectError(await patch(PINNED.free.inbox, { display_name: 'x' }, tenant.token), 'resource_missing', {
      param: 'id',
      message: `No such inbox: '${PINNED.free.inbox}'.`,
    });
  });
});

describe('GET /v1/email/inboxes/{inbox_id}/messages (spec §4.8)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const list = (inboxId: string, query = '', token: string = KEYS.free) =>
    client(app).get(`/v1/email/inboxes/${inboxId}/messages${query}`).set(bearer(token));

  async function allMessages(inboxId: string, query = ''): Promise<MessageRecord[]> {
    const out: MessageRecord[] = [];
    let cursor = '';
    for (;;) {
      const res = await list(inboxId, `?limit=5${query}${cursor}`);
      expectSuccess(res, listInboxMessages);
      out.push(...res.body.data);
      if (!res.body.has_more) return out;
      cursor = `&starting_after=${res.body.data.at(-1).id}`;
    }
  }

  it("§4.8, §2.1: lists the inbox's messages newest first in the list envelope", async () => {
    const res = await list(PINNED.free.inbox);
    expectSuccess(res, listInboxMessages);
    expect(res.body.url).toBe(`/v1/email/inboxes/${PINNED.free.inbox}/messages`);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const message of res.body.data) expect(message.inbox_id).toBe(PINNED.free.inbox);
    const times = res.body.data.map((m: MessageRecord) => Date.parse(m.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('§4.8: pages through exactly the messages of this inbox, as the account state holds them', async () => {
    const messages = await allMessages(PINNED.free.inbox);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(messages.map((m) => m.id)).toEqual(
      state.messages
        .filter((m) => m.inbox_id === PINNED.free.inbox)
        .map((m) => m.id)
        .reverse(),
    );
  });

  it('§2.6: threads agree: in_reply_to is the previous message_id, references every earlier one', async () => {
    const messages = (await allMessages(PINNED.free.inbox)).reverse();
    const threads = new Map<string, MessageRecord[]>();
    for (const message of messages) threads.set(message.thread_id, [...(threads.get(message.thread_id) ?? []), message]);
    expect(threads.size).toBeGreaterThan(1);
    expect([...threads.values()].some((t) => t.length > 1)).toBe(true);
    for (const thread of threads.values()) {
      thread.forEach((message, i) => {
        expect(message.thread_id).toMatch(/^thr_/);
        expect(message.in_reply_to).toBe(i === 0 ? null : thread[i - 1]!.message_id);
        expect(message.references).toEqual(thread.slice(0, i).map((m) => m.message_id));
        const base = thread[0]!.subject;
        expect(message.subject).toBe(i === 0 ? base : `Re: ${base}`);
        expect(message.direction).toBe(i % 2 === 0 ? 'inbound' : 'outbound');
        expect(message.status).toBe(message.direction === 'inbound' ? 'received' : 'sent');
      });
    }
  });

  it('§4.8: direction filters inbound or outbound messages', async () => {
    const all = await allMessages(PINNED.free.inbox);
    for (const direction of ['inbound', 'outbound'] as const) {
      const filtered = await allMessages(PINNED.free.inbox, `&direction=${direction}`);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.map((m) => m.id)).toEqual(all.filter((m) => m.direction === direction).map((m) => m.id));
    }
  });

  it('§4.8: label filters messages carrying the label, and combines with direction', async () => {
    const all = await allMessages(PINNED.free.inbox);
    const unread = await allMessages(PINNED.free.inbox, '&label=unread');
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.map((m) => m.id)).toEqual(all.filter((m) => m.labels.includes('unread')).map((m) => m.id));
    expect(await allMessages(PINNED.free.inbox, '&label=unread&direction=outbound')).toEqual([]);
    expect(await allMessages(PINNED.free.inbox, '&label=no-such-label')).toEqual([]);
  });

  it('§4.8: an invalid direction is 400 bad_request naming direction', async () => {
    expectError(await list(PINNED.free.inbox, '?direction=sideways'), 'bad_request', {
      param: 'direction',
      message: MESSAGES.invalidQuery('direction', 'must be one of: inbound, outbound'),
    });
  });

  it("§4: a cursor from another inbox's messages is 400 naming starting_after", async () => {
    const state = await stateOf(app, ACCOUNTS.free);
    const foreign = state.messages.find((m) => m.inbox_id !== PINNED.free.inbox)!;
    expectError(await list(PINNED.free.inbox, `?starting_after=${foreign.id}`), 'bad_request', {
      param: 'starting_after',
      message: `Invalid value for 'starting_after': no object with id '${foreign.id}' in this list.`,
    });
  });

  it('§4.8: an unknown inbox is 404 naming inbox_id', async () => {
    expectError(await list('inbox_nope'), 'resource_missing', { param: 'inbox_id', message: "No such inbox: 'inbox_nope'." });
  });

  it("tenancy: another account's inbox is 404", async () => {
    expectError(await list(PINNED.paid.inbox), 'resource_missing', {
      param: 'inbox_id',
      message: `No such inbox: '${PINNED.paid.inbox}'.`,
    });
  });

  it('tenancy: a tenant made through the admin API lists its own inboxes only', async () => {
    const tenant = await newTenant(app);
    const [inbox] = (await stateOf(app, tenant.accountId)).inboxes;
    const res = await list(inbox!.id, '', tenant.token);
    expectSuccess(res, listInboxMessages);
    expect(res.body.data.length).toBeGreaterThan(0);
    expectError(await list(inbox!.id), 'resource_missing', { param: 'inbox_id', message: `No such inbox: '${inbox!.id}'.` });
  });
});
