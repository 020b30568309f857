/**
 * docs/fixtures.md is the fixture format's reference: its example boots as written and serves its
 * names through /v1, and it documents every member the schema takes (each pinned collection's table
 * lists each of its fields), so the page cannot fall behind the loader.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_SCHEMA } from '../../src/fixture/fixture-schema.js';
import { PINNED_RECORDS_SCHEMA } from '../../src/store/pinned-records.js';
import { bearer, client, makeApp } from '../support/harness.js';

const page = readFileSync(new URL('../../docs/fixtures.md', import.meta.url), 'utf8');
const dir = mkdtempSync(path.join(tmpdir(), 'ccm-docs-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The JSON block after the `example-fixture` marker. */
function example(): string {
  const after = page.slice(page.indexOf('<!-- example-fixture'));
  const match = /```json\n([\s\S]*?)\n```/.exec(after);
  if (!match) throw new Error('docs/fixtures.md has no example fixture block');
  return match[1]!;
}

/** The text of the section under `heading`, up to the next heading of any level. */
function section(heading: string): string {
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) return '';
  const next = page.slice(start + heading.length + 2).search(/\n#{2,3} /);
  return page.slice(start, next < 0 ? undefined : start + heading.length + 2 + next);
}

describe('docs/fixtures.md', () => {
  it('its example boots, and its pinned names, form fields and links are served by /v1', async () => {
    const file = path.join(dir, 'acme.json');
    writeFileSync(file, example());
    const app = makeApp({ fixtures: file });
    const token = 'cc_test_acme_ci_key';
    const courses = await client(app).get('/v1/experiences?type=course&limit=100').set(bearer(token));
    expect(courses.status).toBe(200);
    expect(courses.body.data.find((e: { id: string }) => e.id === 'exp_ts_course')).toMatchObject({
      name: 'TypeScript Deep Dive',
      slug: 'typescript-deep-dive',
      access_type: 'public',
    });
    const submission = await client(app)
      .post('/v1/form_submissions')
      .set(bearer(token))
      .send({
        form_id: 'frm_waitlist',
        answers: { fld_waitlist_email: 'ada@example.com', fld_waitlist_level: 'Daily user', fld_waitlist_consent: true },
      });
    expect(submission.status).toBe(201);
    expect(submission.body.respondent_id).toBe('cus_ada');
    expect(submission.body.answers.map((a: { label: string }) => a.label)).toEqual([
      'Work email',
      'Your level',
      'Email me when the course opens',
    ]);
    const state = (await client(app).get('/__admin/accounts/acct_acme')).body.state;
    expect(state.deliveries[0]).toMatchObject({ customer_id: 'cus_ada', experience_id: 'exp_ts_workbook' });
    expect(state.inboxes.find((i: { id: string }) => i.id === 'inbox_help')).toMatchObject({
      address: expect.stringMatching(/^help@/) as unknown,
    });
    expect(state.experiences).toHaveLength(12);
    const empty = (await client(app).get('/__admin/accounts/acct_acme_empty')).body.state;
    expect(empty.experiences).toEqual([]);
  });

  it('names every top-level, account and template member', () => {
    const account = FIXTURE_SCHEMA.properties.accounts.items.properties;
    const members = [
      ...Object.keys(FIXTURE_SCHEMA.properties),
      ...Object.keys(account),
      ...Object.keys(account.api_keys.items.properties),
      ...Object.keys(FIXTURE_SCHEMA.properties.template.properties),
    ];
    for (const member of members) expect(page, member).toContain(`\`${member}\``);
  });

  it('has a table for each pinned collection that lists each of its fields', () => {
    for (const [collection, schema] of Object.entries(PINNED_RECORDS_SCHEMA.properties)) {
      const text = section(`### \`${collection}\``);
      expect(text, collection).not.toBe('');
      for (const field of Object.keys(schema.items.properties))
        expect(text, `${collection}.${field}`).toMatch(new RegExp(`^\\| \`${field}\` \\|`, 'm'));
    }
    const fields = section('### `forms`');
    for (const field of ['id', 'field_type', 'label', 'required', 'options'])
      expect(fields).toMatch(new RegExp(`^\\| \`${field}\` \\|`, 'm'));
  });
});
