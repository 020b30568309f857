/**
 * Pinned records: a fixture account may name some of its seeded records and set their documented
 * fields, so documentation, curl examples and a team's own tests can use stable ids, slugs, names
 * and form fields (README "Default records", docs/fixtures.md). The seeders make the pinned records
 * first, with the given values, and fill every field left out with seeded fake data as usual.
 *
 * Determinism: a seeder draws the same fake values for a pinned record whatever it sets, and then
 * lets the pinned values win, so setting a name never shifts the data of any other record; pinning
 * only ids, slugs and types gives the records it always gave.
 *
 * Not settable: what is derived state (`active_grants_count`, grants, messages, timestamps, which
 * lie before the account's creation instant whenever that is) and what the API writes (`object`).
 */
import {
  ACCESS_TYPES,
  EXPERIENCE_TYPES,
  LOCATION_TYPES,
  REPEAT_FREQUENCIES,
  type AdDestinationRecord,
  type DiscountRecord,
  type ExperienceType,
  type FormFieldType,
  type PriceVariantRecord,
} from './records.js';

export const FORM_PRESETS = ['newsletter', 'survey', 'registration'] as const;
export type FormPreset = (typeof FORM_PRESETS)[number];

export const FORM_FIELD_TYPES = [
  'email',
  'text',
  'textarea',
  'number',
  'phone',
  'url',
  'select',
  'checkbox',
] as const satisfies readonly FormFieldType[];
export const AD_PLATFORMS = ['meta', 'google_ads', 'tiktok', 'pinterest'] as const satisfies readonly AdDestinationRecord['platform'][];

export interface PinnedFormField {
  id?: string;
  field_type: FormFieldType;
  label: string;
  required?: boolean;
  options?: string[];
}

export interface PinnedCustomer {
  id: string;
  name?: string;
  email?: string;
}

export interface PinnedForm {
  id: string;
  preset?: FormPreset;
  name?: string;
  fields?: PinnedFormField[];
  lead_magnet_experience_id?: string | null;
}

export interface PinnedInbox {
  id: string;
  local_part?: string;
  display_name?: string;
  metadata?: Record<string, unknown>;
}

export interface PinnedExperience {
  id: string;
  slug?: string;
  type?: ExperienceType;
  name?: string;
  description?: string;
  access_type?: (typeof ACCESS_TYPES)[number];
}

export interface PinnedPriceVariant {
  id: string;
  experience_ids?: string[];
  name?: string;
  amount?: number;
  currency?: string;
  interval?: PriceVariantRecord['interval'];
}

export interface PinnedDiscount {
  id: string;
  slug?: string;
  name?: string;
  percent_off?: number | null;
  amount_off?: number | null;
  currency?: string | null;
  duration?: DiscountRecord['duration'];
  max_redemptions?: number | null;
  times_redeemed?: number;
  expires_at?: string | null;
}

export interface PinnedEventSession {
  id: string;
  experience_id: string;
  title?: string;
  description?: string;
  start_time?: string;
  end_time?: string;
  location_type?: (typeof LOCATION_TYPES)[number];
  location_details?: string;
  allow_rsvp?: boolean;
  capacity?: number | null;
  repeat_frequency?: (typeof REPEAT_FREQUENCIES)[number];
}

export interface PinnedAdDestination {
  id: string;
  account_id: string;
  platform?: AdDestinationRecord['platform'];
  name?: string;
  pixel_id?: string;
}

export interface PinnedRecords {
  customers?: PinnedCustomer[];
  /** `newsletter` asks for an email only; `survey` adds text, select and checkbox fields; `registration` a phone and a consent box. */
  forms?: PinnedForm[];
  inboxes?: PinnedInbox[];
  experiences?: PinnedExperience[];
  /** `experience_ids` must name pinned experiences of the same account. */
  price_variants?: PinnedPriceVariant[];
  discounts?: PinnedDiscount[];
  /** `experience_id` must name a pinned `event` experience of the same account. */
  event_sessions?: PinnedEventSession[];
  ad_destinations?: PinnedAdDestination[];
}

/** The same rule as the API's (src/resources/form-submissions/answers.ts): something@domain.tld. */
const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

const id = (prefix: string, description: string) => ({
  type: 'string',
  pattern: `^${prefix}_[A-Za-z0-9_]{1,64}$`,
  description: `${description} (\`${prefix}_\` then 1 to 64 letters, digits or underscores).`,
});
const text = (description: string, maxLength = 500) => ({ type: 'string', minLength: 1, maxLength, description });
const slug = (description: string) => ({ type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description });
const instant = (description: string) => ({ type: 'string', format: 'date-time', description });
const currency = (description: string) => ({ type: 'string', pattern: '^[a-z]{3}$', description });
/** A collection's title in the singular, for its items (English: `Inboxes` is the one -es). */
const singular = (plural: string) => (plural.endsWith('xes') ? plural.slice(0, -2) : plural.replace(/s$/, ''));
const list = (title: string, description: string, required: string[], properties: Record<string, unknown>) => ({
  type: 'array',
  title,
  description,
  items: { type: 'object', title: singular(title), additionalProperties: false, required, properties },
});

const FORM_FIELD_SCHEMA = {
  type: 'object',
  title: 'Form field',
  additionalProperties: false,
  required: ['field_type', 'label'],
  properties: {
    id: id('fld', 'The field id answers are keyed by; default `fld_<form id without frm_>_<position from 1>`'),
    field_type: { enum: FORM_FIELD_TYPES, description: 'What the field takes (contract §3.2); at most one `email` field per form.' },
    label: text('The label shown to the respondent, and the `label` of each answer.'),
    required: { type: 'boolean', description: 'Whether a submission must answer it (default false).' },
    options: {
      type: 'array',
      items: text('One choice.', 200),
      uniqueItems: true,
      maxItems: 100,
      description:
        'Choices of a `select` (at least one) or `checkbox` field (none: a single consent box); other types take none (default []).',
    },
  },
} as const;

export const PINNED_RECORDS_SCHEMA = {
  type: 'object',
  title: 'Pinned records',
  description:
    'Records of this account with fixed ids and the fields you set; every field left out is seeded fake data, and the template adds seeded records up to its counts. See docs/fixtures.md.',
  additionalProperties: false,
  properties: {
    customers: list('Customers', 'Customers (spec §4.5 matches form submissions to them by email).', ['id'], {
      id: id('cus', 'The customer id'),
      name: text('Full name.', 200),
      email: {
        type: 'string',
        pattern: EMAIL_PATTERN,
        maxLength: 254,
        description: 'Email address, unique in the account (stored lower-case).',
      },
    }),
    forms: list('Forms', 'Lead-magnet forms (spec §4.5).', ['id'], {
      id: id('frm', 'The form id'),
      preset: {
        enum: FORM_PRESETS,
        description:
          'Fields to start from when `fields` is left out: `newsletter` (email only, the default), `survey` (email, text, select, checkbox) or `registration` (email, text, phone, url, textarea, consent box).',
      },
      name: text('The form name.', 200),
      fields: {
        type: 'array',
        items: FORM_FIELD_SCHEMA,
        minItems: 1,
        maxItems: 50,
        description: 'The form fields, in order; replace the preset.',
      },
      lead_magnet_experience_id: {
        ...id('exp', 'What a submission delivers: a pinned `digital_download` experience of this account, or null for nothing'),
        type: ['string', 'null'],
      },
    }),
    inboxes: list('Inboxes', 'Mail inboxes (spec §4.7); all of an account share one seeded domain.', ['id'], {
      id: id('inbox', 'The inbox id'),
      local_part: {
        type: 'string',
        pattern: '^[a-z0-9][a-z0-9._-]{0,63}$',
        description: 'The part before `@`, unique in the account; the address is `<local_part>@<seeded domain>`.',
      },
      display_name: text('The name its messages are sent under.', 200),
      metadata: { type: 'object', description: 'Free-form metadata (spec §2.5), served as set.' },
    }),
    experiences: list('Experiences', 'Experiences (spec §2.7, §4.9); their type-specific `details` are seeded.', ['id'], {
      id: id('exp', 'The experience id'),
      slug: slug('The slug, unique in the account; default made from the name.'),
      type: { enum: EXPERIENCE_TYPES, description: 'The experience type; default the next type in turn.' },
      name: text('The name.', 200),
      description: text('The description.', 5000),
      access_type: { enum: ACCESS_TYPES, description: 'Who may see it.' },
    }),
    price_variants: list('Price variants', 'Prices of experiences; each buyer holds a seeded grant per linked experience.', ['id'], {
      id: id('pv', 'The price variant id'),
      experience_ids: {
        type: 'array',
        items: id('exp', 'A pinned experience of this account'),
        uniqueItems: true,
        description: 'The experiences it sells: pinned experiences of this account; default 1 to 3 seeded ones.',
      },
      name: text('The name.', 200),
      amount: { type: 'integer', minimum: 0, maximum: 100_000_000, description: 'The price in the smallest unit of the currency (cents).' },
      currency: currency('Three-letter ISO 4217 code, lower-case (`usd`).'),
      interval: { enum: ['one_time', 'month', 'year'], description: 'How often it is charged.' },
    }),
    discounts: list('Discounts', 'Discount codes; `percent_off` and `amount_off` exclude each other.', ['id'], {
      id: id('disc', 'The discount id'),
      slug: slug('The code customers type, unique in the account.'),
      name: text('The name.', 200),
      percent_off: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 100,
        description: 'Percent off; sets `amount_off` and `currency` to null.',
      },
      amount_off: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 100_000_000,
        description: 'Amount off in the smallest currency unit; sets `percent_off` to null and `currency` to `usd` unless given.',
      },
      currency: { ...currency('Currency of `amount_off`; only with an amount off.'), type: ['string', 'null'] },
      duration: { enum: ['once', 'repeating', 'forever'], description: 'How long it applies to a subscription.' },
      max_redemptions: { type: ['integer', 'null'], minimum: 1, description: 'How many times it may be used; null for no limit.' },
      times_redeemed: { type: 'integer', minimum: 0, description: 'How many times it was used; at most `max_redemptions`.' },
      expires_at: { ...instant('When it stops applying, or null for never.'), type: ['string', 'null'] },
    }),
    event_sessions: list('Event sessions', 'Sessions of pinned `event` experiences (spec §4.12).', ['id', 'experience_id'], {
      id: id('evs', 'The session id'),
      experience_id: id('exp', 'A pinned `event` experience of this account'),
      title: text('The title.', 200),
      description: text('The description.', 5000),
      start_time: instant('When it starts.'),
      end_time: instant('When it ends: after `start_time`; default start plus a seeded duration.'),
      location_type: { enum: LOCATION_TYPES, description: 'Where it takes place.' },
      location_details: text('A meeting link or an address.'),
      allow_rsvp: { type: 'boolean', description: 'Whether attendees may RSVP.' },
      capacity: { type: ['integer', 'null'], minimum: 1, description: 'How many may attend; null for no limit.' },
      repeat_frequency: { enum: REPEAT_FREQUENCIES, description: 'How it repeats.' },
    }),
    ad_destinations: list('Ad destinations', 'Pixels or datasets that conversion events go to (spec §4.6).', ['id', 'account_id'], {
      id: id('addest', 'The destination id'),
      account_id: id('adacct', 'Its ad account: the pair (`id`, `account_id`) is what `POST /v1/ads/conversions` takes'),
      platform: { enum: AD_PLATFORMS, description: 'The ad platform.' },
      name: text('The name.', 200),
      pixel_id: text('The pixel or dataset id on the platform.', 200),
    }),
  },
} as const;
