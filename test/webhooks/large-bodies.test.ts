/**
 * A request with a large body (src/http/large-body-lane.ts) answers `JSON.stringify` of its view as
 * one text, and an event whose object is that view is written from that very text: the payload's
 * `data.object` is byte for byte the answer (contract §4.3: the resource exactly as the API answered
 * it), and an event of another object is serialized on its own, in the order the events happened.
 */
import { describe, expect, it } from 'vitest';
import { LARGE_BODY_BYTES } from '../../src/http/large-body-lane.js';
import { KEYS, bearer, sandbox, useReceivers } from './support.js';

const receiver = useReceivers();

/** The text of `data.object` in a payload: the event's members before `data`, which is last. */
function objectText(payload: string): string {
  const marker = ',"data":{"object":';
  const at = payload.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  expect(payload.endsWith('}}')).toBe(true);
  return payload.slice(at + marker.length, -2);
}

describe('events of a request with a large body (contract §4.3)', () => {
  it("contract §4.3: a large update's event carries the answer's bytes as data.object, escapes and astral characters included", async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['inbox.updated'] });
    const note = `quote " backslash \\ newline \n tab \t control \u0001 euro € clef \ud834\udd1e `.repeat(2000);
    expect(note.length).toBeGreaterThan(LARGE_BODY_BYTES);
    const res = await s.api
      .patch('/v1/email/inboxes/inbox_free_support')
      .set(bearer(KEYS.free))
      .send({ display_name: 'Large', metadata: { note } });
    expect(res.status).toBe(200);
    const [arrival] = await hooks.received(1);
    expect(objectText(arrival!.body)).toBe(res.text);
    expect(res.text).toBe(JSON.stringify(res.body));
  });

  it('contract §4.3: events of other objects than the answer keep their order and their own bytes', async () => {
    const hooks = await receiver();
    const s = sandbox();
    await s.endpoint(hooks.url, { events: ['customer.created', 'form_submission.created'] });
    // Large by its whitespace alone: the same submission as a small body would be.
    const text = `{"form_id":"frm_free_newsletter","email":"large@example.com"${' '.repeat(LARGE_BODY_BYTES + 1)}}`;
    const res = await s.api.post('/v1/form_submissions').set(bearer(KEYS.free)).set('Content-Type', 'application/json').send(text);
    expect(res.status).toBe(201);
    await s.advance(0);
    const arrivals = await hooks.received(2);
    expect(arrivals.map((a) => a.json.type)).toEqual(['customer.created', 'form_submission.created']);
    expect(objectText(arrivals[1]!.body)).toBe(res.text);
    const customer = arrivals[0]!.json.data.object as { id: string; email: string };
    expect(customer).toMatchObject({ id: res.body.respondent_id, email: 'large@example.com' });
    expect(objectText(arrivals[0]!.body)).toBe(JSON.stringify(customer));
  });
});
