/**
 * Filters cost O(log n + limit): `type` on experiences and `label` / `direction` on an
 * inbox's messages are answered from index buckets (src/resources/experiences/indexes.ts,
 * src/resources/email/indexes.ts). Through the API, every filter combination must page exactly as
 * the naive filter over the whole collection would, also while records change between pages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { listExperiences } from '../../src/resources/experiences/operations.js';
import { listInboxMessages } from '../../src/resources/email/operations.js';
import type { Collection } from '../../src/store/collection.js';
import { EXPERIENCE_TYPES, type ExperienceRecord, type MessageRecord } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess } from '../support/resources.js';

const LABELS = ['received', 'sent', 'unread', 'starred', 'no-such-label'] as const;
const DIRECTIONS = ['inbound', 'outbound'] as const;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const BASE = Date.parse('2025-06-01T00:00:00Z');

/** Walks every page of a list through the API with `limit`; checks each page against the operation's schema. */
async function walk(app: MockApp, path: string, query: string, operation: Parameters<typeof expectSuccess>[1]): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const after = cursor === undefined ? '' : `&starting_after=${cursor}`;
    const res = await client(app).get(`${path}?limit=4${query}${after}`).set(bearer(KEYS.free));
    expectSuccess(res, operation);
    ids.push(...res.body.data.map((record: { id: string }) => record.id));
    if (!res.body.has_more) return ids;
    cursor = ids[ids.length - 1];
  }
}

/** Newest first, as every list: the naive selection the index stands in for. */
const naive = <T extends { id: string }>(collection: Collection<T>, keep: (record: T) => boolean): string[] =>
  collection
    .filter(keep)
    .map((record) => record.id)
    .reverse();

/** Seeded changes to the account's messages and experiences, made straight in the store. */
function churn(app: MockApp, seed: number): void {
  const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
  const messages = store.write('messages');
  const experiences = store.write('experiences');
  const inboxIds = store
    .collection('inboxes')
    .values()
    .map((inbox) => inbox.id);
  const [messageTemplate] = messages.values();
  // The seeded experiences hold every type: a changed type takes the details of that type (the schema ties them).
  const typed = new Map(experiences.values().map((experience) => [experience.type, structuredClone(experience)]));
  const plan = fc.sample(
    fc.record({
      inbox: fc.nat({ max: inboxIds.length - 1 }),
      direction: fc.constantFrom(...DIRECTIONS),
      labels: fc.subarray([...LABELS.slice(0, 4)]),
      type: fc.constantFrom(...EXPERIENCE_TYPES),
      second: fc.nat({ max: 40 }),
      action: fc.constantFrom('insert', 'insert', 'update', 'delete'),
      victim: fc.nat(),
    }),
    { seed, numRuns: 60 },
  );
  for (const [i, step] of plan.entries()) {
    if (step.action === 'insert') {
      const created_at = iso(BASE + step.second * 1000);
      messages.insert({
        ...messageTemplate!,
        id: `msg_churn${i}`,
        inbox_id: inboxIds[step.inbox]!,
        direction: step.direction,
        labels: step.labels,
        created_at,
      } satisfies MessageRecord);
      experiences.insert({
        ...typed.get(step.type)!,
        id: `exp_churn${i}`,
        slug: `churn-${i}`,
        created_at,
      } satisfies ExperienceRecord);
    } else {
      const message = messages.values()[step.victim % messages.size]!;
      const experience = experiences.values()[step.victim % experiences.size]!;
      if (step.action === 'delete') {
        messages.delete(message.id);
        experiences.delete(experience.id);
      } else {
        // Moves the records between buckets: another inbox, direction, labels and type.
        messages.update(message.id, (m) =>
          Object.assign(m, { inbox_id: inboxIds[step.inbox]!, direction: step.direction, labels: step.labels }),
        );
        experiences.update(experience.id, (e) => Object.assign(e, { type: step.type, details: typed.get(step.type)!.details }));
      }
    }
  }
}

describe('indexed list filters through the API page as the naive filter', () => {
  it('every type filter pages exactly as the naive filter, after seeded inserts, updates and deletes', async () => {
    const app = makeApp();
    const experiences = app.sandbox.world.store.forAccount(ACCOUNTS.free)!.write('experiences');
    // The first filtered list builds the index from the seeded records; the churn then maintains it.
    await walk(app, '/v1/experiences', '&type=course', listExperiences);
    churn(app, 16);
    for (const type of EXPERIENCE_TYPES) {
      expect(await walk(app, '/v1/experiences', `&type=${type}`, listExperiences), type).toEqual(
        naive(experiences, (e) => e.type === type),
      );
    }
  });

  it('every label and direction combination of every inbox pages exactly as the naive filter, after seeded inserts, updates and deletes', async () => {
    const app = makeApp();
    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const messages = store.write('messages');
    const inboxIds = store
      .collection('inboxes')
      .values()
      .map((inbox) => inbox.id);
    await walk(app, `/v1/email/inboxes/${inboxIds[0]}/messages`, '&label=received', listInboxMessages);
    churn(app, 7);
    for (const inboxId of inboxIds) {
      for (const label of [undefined, ...LABELS]) {
        for (const direction of [undefined, ...DIRECTIONS]) {
          const query = `${label ? `&label=${label}` : ''}${direction ? `&direction=${direction}` : ''}`;
          const expected = naive(
            messages,
            (m) =>
              m.inbox_id === inboxId &&
              (label === undefined || m.labels.includes(label)) &&
              (direction === undefined || m.direction === direction),
          );
          expect(await walk(app, `/v1/email/inboxes/${inboxId}/messages`, query, listInboxMessages), `${inboxId}${query}`).toEqual(
            expected,
          );
        }
      }
    }
  });

  it('a cursor from another inbox is still refused, a cursor that does not match the filter still works', async () => {
    const app = makeApp();
    const store = app.sandbox.world.store.forAccount(ACCOUNTS.free)!;
    const messages = store.write('messages');
    const [first, second] = store.collection('inboxes').values();
    const other = messages.find((m) => m.inbox_id === second!.id)!;
    const refused = await client(app)
      .get(`/v1/email/inboxes/${first!.id}/messages?direction=inbound&starting_after=${other.id}`)
      .set(bearer(KEYS.free));
    expect(refused.status).toBe(400);
    const outbound = messages.filter((m) => m.inbox_id === first!.id && m.direction === 'outbound').at(-1)!;
    const res = await client(app)
      .get(`/v1/email/inboxes/${first!.id}/messages?direction=inbound&limit=100&starting_after=${outbound.id}`)
      .set(bearer(KEYS.free));
    expectSuccess(res, listInboxMessages);
    const older = messages.values().slice(0, messages.values().indexOf(outbound));
    expect(res.body.data.map((m: MessageRecord) => m.id)).toEqual(
      older
        .filter((m) => m.inbox_id === first!.id && m.direction === 'inbound')
        .map((m) => m.id)
        .reverse(),
    );
  });
});
