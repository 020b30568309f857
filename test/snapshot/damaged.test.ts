/**
 * Contract §5.3: "a damaged [snapshot] → 422 naming the member in `param`". Damaged means anything
 * the sandbox itself could never have written: a record missing a member its /v1 answer documents
 * (or of another type), a record pointing at a record that is not in the snapshot, two records with
 * one id, a job whose state contradicts its timeline, a key whose token or last four do not agree.
 * Such a snapshot loaded would answer 5xx later (a PATCH of an inbox without `display_name`).
 */
import { describe, expect, it } from 'vitest';
import { client, makeApp } from '../support/harness.js';
import { realSnapshot } from './support.js';

type Json = Record<string, any>;
type Api = ReturnType<typeof client>;

async function load(api: Api, snapshot: Json) {
  return api.post('/__admin/accounts').send({ snapshot });
}

describe('contract §5.3: a damaged snapshot is 422 naming the member, never an account that fails later', () => {
  it('§5.3: a record missing a member its /v1 answer documents is refused (an inbox without display_name), not loaded to answer 500 on PATCH', async () => {
    const snapshot = await realSnapshot();
    delete snapshot.records.inboxes[1].display_name;
    const api = client(makeApp());
    const res = await load(api, snapshot);
    expect([res.status, res.body.error?.code, res.body.error?.param], JSON.stringify(res.body)).toEqual([
      422,
      'validation_failed',
      'snapshot.records.inboxes.1.display_name',
    ]);
    expect(res.body.error.errors['snapshot.records.inboxes.1.display_name']).toEqual([expect.stringContaining('display_name')]);
    expect((await api.get(`/__admin/accounts/${snapshot.account.id}`)).status).toBe(404);
  });

  it('§5.3: every record is held to its schema and to the others: wrong types, dangling references, repeated ids, contradicting jobs, keys', async () => {
    const base = await realSnapshot();
    const api = client(makeApp());
    const damaged = (change: (copy: Json) => void) => {
      const copy = structuredClone(base);
      change(copy);
      return copy;
    };
    const cases: Array<[Json, string]> = [
      [damaged((s) => (s.records.customers[0].email = 42)), 'snapshot.records.customers.0.email'],
      [damaged((s) => (s.records.messages[2].to = 'someone@example.com')), 'snapshot.records.messages.2.to'],
      [
        damaged((s) => (s.records.messages[0].attachments = [{ filename: 'a' }])),
        'snapshot.records.messages.0.attachments.0.attachment_id',
      ],
      [damaged((s) => (s.records.experiences[0].details = 'none')), 'snapshot.records.experiences.0.details'],
      [damaged((s) => (s.records.experiences[0].type = 'podcast')), 'snapshot.records.experiences.0.type'],
      [damaged((s) => (s.records.forms[0].fields[0].field_type = 'colour')), 'snapshot.records.forms.0.fields.0.field_type'],
      [damaged((s) => (s.records.discounts[0].times_redeemed = -1)), 'snapshot.records.discounts.0.times_redeemed'],
      [damaged((s) => (s.records.event_sessions[0].start_time = 'tomorrow')), 'snapshot.records.event_sessions.0.start_time'],
      [damaged((s) => (s.records.grants[0].surprise = true)), 'snapshot.records.grants.0.surprise'],
      [damaged((s) => (s.records.inboxes[0].metadata = [])), 'snapshot.records.inboxes.0.metadata'],
      // Ids unique in the whole snapshot, not only in their list.
      [damaged((s) => (s.records.grants[3].id = s.records.grants[1].id)), 'snapshot.records.grants.3.id'],
      // References point at records of the snapshot.
      [damaged((s) => (s.records.messages[0].inbox_id = 'inbox_gone')), 'snapshot.records.messages.0.inbox_id'],
      [damaged((s) => (s.records.grants[0].customer_id = 'cus_gone')), 'snapshot.records.grants.0.customer_id'],
      [damaged((s) => (s.records.price_variants[0].experience_ids = ['exp_gone'])), 'snapshot.records.price_variants.0.experience_ids.0'],
      [damaged((s) => (s.records.event_sessions[0].experience_id = 'exp_gone')), 'snapshot.records.event_sessions.0.experience_id'],
      [damaged((s) => (s.records.form_submissions[0].form_id = 'frm_gone')), 'snapshot.records.form_submissions.0.form_id'],
      [damaged((s) => (s.records.forms[0].lead_magnet_experience_id = 'exp_gone')), 'snapshot.records.forms.0.lead_magnet_experience_id'],
      // Counters agree with what they count; values looked up by are unique.
      [damaged((s) => (s.records.experiences[0].active_grants_count += 1)), 'snapshot.records.experiences.0.active_grants_count'],
      [damaged((s) => (s.records.customers[1].email = s.records.customers[0].email)), 'snapshot.records.customers.1.email'],
      [damaged((s) => (s.records.experiences[1].slug = s.records.experiences[0].slug)), 'snapshot.records.experiences.1.slug'],
      // A job's state agrees with its timeline.
      [damaged((s) => (s.jobs[0].status = 'completed')), 'snapshot.jobs.0.status'],
      [damaged((s) => (s.jobs[0].timeline.processing_ms = 0)), 'snapshot.jobs.0.timeline.processing_ms'],
      [damaged((s) => (s.jobs[0].timeline.started_at_ms = s.jobs[0].timeline.ends_at_ms + 1)), 'snapshot.jobs.0.timeline.started_at_ms'],
      [damaged((s) => (s.jobs[0].input = { url: 'https://example.com/' })), 'snapshot.jobs.0.input.max_pages'],
      [damaged((s) => (s.jobs[0].timeline.ends_at_ms = Number.MAX_SAFE_INTEGER)), 'snapshot.jobs.0.timeline.ends_at_ms'],
      // Keys and secrets well-formed.
      [damaged((s) => (s.api_keys[0].id = 'acct_x')), 'snapshot.api_keys.0.id'],
      [damaged((s) => (s.api_keys[0].last4 = 'zzzz')), 'snapshot.api_keys.0.last4'],
      [damaged((s) => (s.webhook_endpoints[0].secret = 'whsec_***')), 'snapshot.webhook_endpoints.0.secret'],
      // An endpoint POST /__admin/webhook_endpoints would refuse: the same check for both.
      [damaged((s) => (s.webhook_endpoints[0].url = 'http://user:secretpass@127.0.0.1:9/hooks')), 'snapshot.webhook_endpoints.0.url'],
      [damaged((s) => (s.webhook_endpoints[0].url = `http://127.0.0.1:9/${'a'.repeat(100_000)}`)), 'snapshot.webhook_endpoints.0.url'],
      [damaged((s) => (s.webhook_endpoints[0].url = ' http://127.0.0.1:9/hooks')), 'snapshot.webhook_endpoints.0.url'],
      [damaged((s) => (s.webhook_endpoints[0].events = ['*', '*'])), 'snapshot.webhook_endpoints.0.events'],
      [damaged((s) => (s.webhook_endpoints[0].events = [])), 'snapshot.webhook_endpoints.0.events'],
      [damaged((s) => (s.webhook_endpoints[0].events = ['customer.created', 'nope'])), 'snapshot.webhook_endpoints.0.events.1'],
      // Instants the clock can hold.
      [damaged((s) => (s.records.customers[0].created_at = '2026-02-30T00:00:00Z')), 'snapshot.records.customers.0.created_at'],
      [damaged((s) => (s.clock.now = '+275760-09-13T00:00:00.001Z')), 'snapshot.clock.now'],
      // A member named like Object's own: a plain key of a record, refused as unknown, not a prototype.
      [
        damaged(
          (s) =>
            (s.records.customers[0] = JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(s.records.customers[0]).slice(1)}`)),
        ),
        'snapshot.records.customers.0.__proto__',
      ],
    ];
    for (const [snapshot, param] of cases) {
      const res = await load(api, snapshot);
      expect([res.status, res.body.error?.code, res.body.error?.param], `${param}: ${JSON.stringify(res.body)}`).toEqual([
        422,
        'validation_failed',
        param,
      ]);
      expect(Object.keys(res.body.error.errors), param).toEqual([param]);
    }
    expect(({} as Json).polluted).toBeUndefined();
    expect((await api.get(`/__admin/accounts/${base.account.id}`)).status).toBe(404);
    // The undamaged snapshot still loads.
    expect((await load(api, base)).status).toBe(201);
  });
});
