/**
 * Contract §5.3, §5.4: the snapshot document as GET /__admin/openapi.json describes it (the answer of
 * `GET /accounts/{id}/snapshot`, the `snapshot` member of `POST /accounts`) is the one the loader
 * holds snapshots to: every member named, every record held to its record schema
 * (src/snapshot/record-schemas.ts), so a client generated from the document knows each record's
 * members, and what the published schema refuses the loader refuses too (422 naming the member).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { client, makeApp } from '../support/harness.js';
import { realSnapshot } from './support.js';

type Json = Record<string, any>;

async function published(): Promise<{ validate: (value: unknown) => boolean; document: Json }> {
  const document = (await client(makeApp()).get('/__admin/openapi.json')).body as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'admin', components: document.components });
  const answer = document.paths['/accounts/{id}/snapshot'].get.responses['200'].content['application/json'].schema;
  const validate = ajv.compile({ $ref: `admin${answer.$ref as string}` });
  return { validate: (value) => validate(value), document };
}

describe('contract §5.4: the snapshot document in the admin OpenAPI document is the one the loader checks', () => {
  it('§5.3: accepts a snapshot the sandbox took, and refuses, as the loader does, records and members it could never have written', async () => {
    const { validate } = await published();
    const snapshot = await realSnapshot();
    expect(validate(snapshot)).toBe(true);
    const damages: Array<[string, (s: Json) => void]> = [
      ['a record member of another type', (s) => (s.records.customers[0].email = 42)],
      ['an unknown record member', (s) => (s.records.inboxes[0].colour = 'red')],
      ['a record missing a member', (s) => delete s.records.inboxes[1].display_name],
      ['an unknown collection', (s) => (s.records.widgets = [])],
      ['a missing collection', (s) => delete s.records.forms],
      ['a key without its token', (s) => delete s.api_keys[0].token],
      ['a job with an unknown state', (s) => (s.jobs[0].status = 'paused')],
      ['an endpoint with a bad secret', (s) => (s.webhook_endpoints[0].secret = 'not base64!')],
      ['an unknown account member', (s) => (s.account.owner = 'me')],
      ['an unknown plan', (s) => (s.account.plan = 'gold')],
      ['an unknown clock mode', (s) => (s.clock.mode = 'paused')],
      ['credits that are not integers', (s) => (s.credits.used = 1.5)],
      ['another version', (s) => (s.version = 2)],
      ['an unknown top member', (s) => (s.extra = true)],
    ];
    const api = client(makeApp());
    for (const [what, damage] of damages) {
      const copy = structuredClone(snapshot);
      damage(copy);
      expect(validate(copy), what).toBe(false);
      const loaded = await api.post('/__admin/accounts').send({ snapshot: copy });
      expect(loaded.status, what).toBe(422);
    }
  });

  it('§5.4: the snapshot member of POST /accounts is described by the same schema as the snapshot route answers', async () => {
    const { document } = await published();
    const answer = document.paths['/accounts/{id}/snapshot'].get.responses['200'].content['application/json'].schema;
    const body = document.paths['/accounts'].post.requestBody.content['application/json'].schema;
    const resolve = (node: Json): Json => (node.$ref ? document.components.schemas[(node.$ref as string).split('/').pop()!] : node);
    expect(resolve(body).properties.snapshot).toEqual(answer);
    // Each collection's records by their own component, as the loader's record schemas declare them.
    const records = resolve(resolve(answer).properties.records);
    expect(records.additionalProperties).toBe(false);
    expect(records.properties.inboxes.items).toEqual({ $ref: '#/components/schemas/InboxRecord' });
    expect(resolve(records.properties.experiences.items).oneOf).toContainEqual({ $ref: '#/components/schemas/CourseExperience' });
  });
});
