/**
 * Pinned records: a fixture account may name a few of its seeded records, so that documentation and
 * curl examples can use stable ids and slugs (README "Default records"). The seeders make the pinned
 * records first, with the given identity, and fill every other field with seeded fake data as usual.
 * Accounts made through `POST /__admin/accounts` have no pinned records: all their ids are seeded.
 */
import { EXPERIENCE_TYPES, type ExperienceType } from './records.js';

export const FORM_PRESETS = ['newsletter', 'survey', 'registration'] as const;
export type FormPreset = (typeof FORM_PRESETS)[number];

export interface PinnedRecords {
  /** `newsletter` asks for an email only; `survey` adds text, select and checkbox fields; `registration` a phone and a consent box. */
  forms?: { id: string; preset: FormPreset }[];
  inboxes?: { id: string; local_part: string }[];
  experiences?: { id: string; slug: string; type: ExperienceType }[];
  /** `experience_ids` must name pinned experiences of the same account. */
  price_variants?: { id: string; experience_ids: string[] }[];
  discounts?: { id: string; slug: string }[];
  ad_destinations?: { id: string; account_id: string }[];
}

const id = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[A-Za-z0-9_]{1,64}$` });
const slug = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' };
const list = (properties: Record<string, unknown>) => ({
  type: 'array',
  items: { type: 'object', additionalProperties: false, required: Object.keys(properties), properties },
});

export const PINNED_RECORDS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    forms: list({ id: id('frm'), preset: { enum: FORM_PRESETS } }),
    inboxes: list({ id: id('inbox'), local_part: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' } }),
    experiences: list({ id: id('exp'), slug, type: { enum: EXPERIENCE_TYPES } }),
    price_variants: list({ id: id('pv'), experience_ids: { type: 'array', items: id('exp'), uniqueItems: true } }),
    discounts: list({ id: id('disc'), slug }),
    ad_destinations: list({ id: id('addest'), account_id: id('adacct') }),
  },
} as const;

/**
 * Rules the schema cannot say: ids and slugs unique (ids across every account of the fixture), and
 * price variants linked only to pinned experiences. Returns the JSON pointer and the problem, or
 * undefined when the pinned records are consistent.
 */
export function pinnedRecordsProblem(
  pinned: PinnedRecords,
  base: string,
  seenIds: Set<string>,
): { pointer: string; detail: string } | undefined {
  for (const [collection, entries] of Object.entries(pinned) as [string, { id: string; slug?: string }[]][]) {
    const slugs = new Set<string>();
    for (const [i, entry] of entries.entries()) {
      if (seenIds.has(entry.id)) return { pointer: `${base}/${collection}/${i}/id`, detail: `duplicate pinned id '${entry.id}'` };
      seenIds.add(entry.id);
      if (entry.slug !== undefined) {
        if (slugs.has(entry.slug)) return { pointer: `${base}/${collection}/${i}/slug`, detail: `duplicate slug '${entry.slug}'` };
        slugs.add(entry.slug);
      }
    }
  }
  const experienceIds = new Set((pinned.experiences ?? []).map((e) => e.id));
  for (const [i, variant] of (pinned.price_variants ?? []).entries()) {
    const j = variant.experience_ids.findIndex((experienceId) => !experienceIds.has(experienceId));
    if (j >= 0) {
      const detail = `'${variant.experience_ids[j]}' is not a pinned experience of this account`;
      return { pointer: `${base}/price_variants/${i}/experience_ids/${j}`, detail };
    }
  }
  return undefined;
}
