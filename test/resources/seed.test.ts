import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/operations/validation.js';
import { inboxSchema, inboxView } from '../../src/resources/email/schemas.js';
import { experienceSchema } from '../../src/resources/experiences/schemas.js';
import { parseFixture } from '../../src/fixture/fixture-file.js';
import type { CollectionName } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { newTenant, PINNED, stateOf, type AccountState } from '../support/resources.js';

/** The collections the template fills, with the id prefix of their records. */
const PREFIXES = {
  forms: 'frm_',
  customers: 'cus_',
  inboxes: 'inbox_',
  messages: 'msg_',
  experiences: 'exp_',
  price_variants: 'pv_',
  grants: 'grant_',
  discounts: 'disc_',
  event_sessions: 'evs_',
  ad_destinations: 'addest_',
} as const satisfies Partial<Record<CollectionName, string>>;
const OWNED = Object.keys(PREFIXES) as (keyof typeof PREFIXES)[];

/** Every cross-reference of a seeded account points at a record of the same account. */
function expectConsistent(state: AccountState): void {
  for (const name of OWNED) {
    expect(state[name].length, name).toBeGreaterThan(0);
    for (const record of state[name]) expect(record.id, name).toMatch(new RegExp(`^${PREFIXES[name]}[A-Za-z0-9_]+$`));
  }
  const ids = (name: CollectionName) => new Set(state[name].map((r) => r.id));
  const experiences = ids('experiences');
  for (const form of state.forms) {
    expect(form.fields.length).toBeGreaterThan(0);
    for (const field of form.fields) expect(Object.keys(field)).toEqual(['id', 'field_type', 'label', 'required', 'options']);
    expect(form.fields.filter((f) => f.field_type === 'email')).toHaveLength(1);
    if (form.lead_magnet_experience_id) expect(experiences.has(form.lead_magnet_experience_id)).toBe(true);
  }
  for (const variant of state.price_variants) for (const id of variant.experience_ids) expect(experiences.has(id)).toBe(true);
  const variants = new Map(state.price_variants.map((v) => [v.id, v]));
  for (const grant of state.grants) {
    expect(ids('customers').has(grant.customer_id)).toBe(true);
    expect(variants.get(grant.price_variant_id)!.experience_ids).toContain(grant.experience_id);
    expect(grant.status === 'revoked').toBe(grant.revoked_at !== null);
  }
  for (const experience of state.experiences) {
    const active = state.grants.filter((g) => g.experience_id === experience.id && g.status === 'active').length;
    expect(experience.active_grants_count).toBe(active);
  }
  const slugs = state.discounts.map((d) => d.slug);
  expect(new Set(slugs).size).toBe(slugs.length);
  const eventIds = new Set(state.experiences.filter((e) => e.type === 'event').map((e) => e.id));
  for (const session of state.event_sessions) {
    expect(eventIds.has(session.experience_id)).toBe(true);
    expect(Date.parse(session.start_time)).toBeLessThan(Date.parse(session.end_time));
  }
  for (const destination of state.ad_destinations) expect(destination.account_id).toMatch(/^adacct_/);
  expect(new Set(state.ad_destinations.map((d) => d.account_id)).size).toBeGreaterThanOrEqual(2);
  const inboxes = ids('inboxes');
  for (const message of state.messages) expect(inboxes.has(message.inbox_id)).toBe(true);
}

describe('the account template (contract §3.2)', () => {
  it('fills every owned collection of the default accounts with consistent, prefixed records', async () => {
    const app = makeApp();
    for (const account of [ACCOUNTS.free, ACCOUNTS.paid]) expectConsistent(await stateOf(app, account));
  });

  it('fills the same for an account made through POST /__admin/accounts', async () => {
    const app = makeApp();
    const tenant = await newTenant(app, 'paid');
    expectConsistent(await stateOf(app, tenant.accountId));
  });

  it('§4.5: forms include an email-only form and one with text, select and checkbox fields', async () => {
    const { forms } = await stateOf(makeApp(), ACCOUNTS.free);
    expect(forms.some((f) => f.fields.length === 1 && f.fields[0]!.field_type === 'email')).toBe(true);
    expect(forms.some((f) => ['text', 'select', 'checkbox'].every((type) => f.fields.some((field) => field.field_type === type)))).toBe(
      true,
    );
    for (const field of forms.flatMap((f) => f.fields).filter((f) => f.field_type === 'select'))
      expect(field.options.length).toBeGreaterThan(1);
  });

  it('the default accounts carry the pinned records of the fixture (README "Default records")', async () => {
    const app = makeApp();
    for (const tier of ['free', 'paid'] as const) {
      const state = await stateOf(app, ACCOUNTS[tier]);
      const pins = PINNED[tier];
      expect(state.forms.find((f) => f.id === pins.newsletterForm)!.fields.map((f) => f.id)).toEqual([`fld_${tier}_newsletter_email`]);
      expect(state.inboxes.find((i) => i.id === pins.inbox)).toMatchObject({ local_part: 'support' });
      expect(state.experiences.find((e) => e.id === pins.course)).toMatchObject({ type: 'course', slug: PINNED.courseSlug });
      expect(state.experiences.find((e) => e.id === pins.workshop)).toMatchObject({ type: 'event', slug: PINNED.workshopSlug });
      expect(state.price_variants.find((v) => v.id === pins.priceVariant)!.experience_ids).toEqual([pins.course, pins.workshop]);
      expect(state.discounts.find((d) => d.id === pins.discount)).toMatchObject({ slug: PINNED.discountSlug });
      expect(state.ad_destinations.find((d) => d.id === pins.destination)).toMatchObject({ account_id: pins.adAccount });
    }
    const survey = (await stateOf(app, ACCOUNTS.free)).forms.find((f) => f.id === PINNED.free.surveyForm)!;
    expect(survey.fields.map((f) => f.id)).toEqual(Object.values(PINNED.free.survey));
  });

  it('accounts made through the admin API get seeded ids, none of the pinned ones', async () => {
    const app = makeApp();
    const state = await stateOf(app, (await newTenant(app)).accountId);
    const pinnedIds = new Set<unknown>(Object.values(PINNED.free));
    for (const name of OWNED) for (const record of state[name]) expect(pinnedIds.has(record.id)).toBe(false);
  });

  it('is deterministic: the same seed gives the same bytes, another seed other data', async () => {
    const a = await stateOf(makeApp({ seed: '7' }), ACCOUNTS.free);
    const b = await stateOf(makeApp({ seed: '7' }), ACCOUNTS.free);
    const c = await stateOf(makeApp({ seed: '8' }), ACCOUNTS.free);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(a));
  });

  it('seeded experiences and inboxes satisfy the response schemas', async () => {
    const state = await stateOf(makeApp(), ACCOUNTS.free);
    const validExperience = compileSchema(experienceSchema);
    for (const experience of state.experiences) expect(validExperience(experience), JSON.stringify(validExperience.errors)).toBe(true);
    const validInbox = compileSchema(inboxSchema);
    for (const inbox of state.inboxes) expect(validInbox(inboxView(inbox))).toBe(true);
  });

  it('§2.7: the experience schema checks details by type', async () => {
    const state = await stateOf(makeApp(), ACCOUNTS.free);
    const course = state.experiences.find((e) => e.type === 'course')!;
    const event = state.experiences.find((e) => e.type === 'event')!;
    expect(compileSchema(experienceSchema)({ ...course, details: event.details })).toBe(false);
  });

  it('contract §3.1: reset restores the seeded records a test changed', async () => {
    const app = makeApp();
    const before = await stateOf(app, ACCOUNTS.free);
    await client(app).delete(`/v1/discounts/${PINNED.free.discount}`).set(bearer(KEYS.free));
    await client(app).delete(`/v1/price_variants/${PINNED.free.priceVariant}/experiences/${PINNED.free.course}`).set(bearer(KEYS.free));
    expect(await stateOf(app, ACCOUNTS.free)).not.toEqual(before);
    await client(app).post('/__admin/reset');
    expect(await stateOf(app, ACCOUNTS.free)).toEqual(before);
  });
});

describe('pinned records in fixture files', () => {
  const fixture = () => JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));

  it('the default fixture is valid', () => {
    expect(() => parseFixture(fixture(), 'default.json')).not.toThrow();
  });

  it('refuses a pinned id used twice, naming the JSON path', () => {
    const raw = fixture();
    raw.accounts[1].pinned.forms[0].id = raw.accounts[0].pinned.forms[0].id;
    expect(() => parseFixture(raw, 'x.json')).toThrow(
      "fixture x.json at /accounts/1/pinned/forms/0/id: duplicate pinned id 'frm_free_newsletter'",
    );
  });

  it('refuses a price variant linked to an experience that is not pinned', () => {
    const raw = fixture();
    raw.accounts[0].pinned.price_variants[0].experience_ids = ['exp_paid_course'];
    expect(() => parseFixture(raw, 'x.json')).toThrow(
      "fixture x.json at /accounts/0/pinned/price_variants/0/experience_ids/0: 'exp_paid_course' is not a pinned experience of this account",
    );
  });

  it('refuses a pinned id with the wrong prefix, an unknown preset and an unknown collection', () => {
    const wrongPrefix = fixture();
    wrongPrefix.accounts[0].pinned.discounts[0].id = 'coupon_1';
    expect(() => parseFixture(wrongPrefix, 'x.json')).toThrow('at /accounts/0/pinned/discounts/0/id');
    const preset = fixture();
    preset.accounts[0].pinned.forms[0].preset = 'quiz';
    expect(() => parseFixture(preset, 'x.json')).toThrow(
      'at /accounts/0/pinned/forms/0/preset: must be one of newsletter, survey, registration',
    );
    const unknown = fixture();
    unknown.accounts[0].pinned.products = [];
    expect(() => parseFixture(unknown, 'x.json')).toThrow("at /accounts/0/pinned: unknown field 'products'");
  });
});
