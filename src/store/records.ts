/**
 * Record shapes held by the store. API-facing views are built from these by each resource module;
 * internal fields (secrets, access, revocation) never leave through /v1.
 *
 * Whole at ~380 lines on purpose: it is types only (no behaviour), the one place every collection's
 * record is declared, read together by the store, the seeders, the fixtures and the snapshots; split
 * per resource, `CollectionRecords` would import every piece back.
 */
export type Plan = 'free' | 'paid';

export interface AccountRecord {
  id: string;
  object: 'account';
  name: string;
  plan: Plan;
  created_at: string;
  credits: { balance: number; used: number };
}

export type KeyAccess = 'full' | 'read_only';

export interface ApiKeyRecord {
  id: string;
  object: 'api_key';
  name: string | null;
  last4: string;
  token_type: string;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
  /** Internal: what the key may do. `read_only` keys get 403 on every write. */
  access: KeyAccess;
  /** Internal: set by `POST /__admin/api_keys/{id}/revoke`. */
  revoked_at: string | null;
}

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export type JobOutcomeStatus = Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;
/** Job types the sandbox runs (spec §2.3 leaves the values open; see the README's Jobs section). */
export type JobType = 'crawl';

/** The input of a crawl job: the body of `POST /v1/web/crawl` with its defaults filled in. */
export interface CrawlInput {
  url: string;
  max_pages: number;
  max_depth: number;
}

/**
 * When each state of a job begins and how the job ends, fixed when it is created. Its state at any
 * instant is derived from this and the virtual clock (src/jobs/derive.ts). Times are virtual ms.
 */
export interface JobTimeline {
  queued_at_ms: number;
  /** Processing begins (unless the job ends first, at progress 0). */
  started_at_ms: number;
  /** How long processing would take from progress 0 to 100. */
  processing_ms: number;
  /** The job reaches its outcome. */
  ends_at_ms: number;
  outcome: JobOutcomeStatus;
  /** Progress the job shows once ended: 100 when completed; where it stopped otherwise. */
  ends_at_progress: number;
  /** Message and code of a failed job; null otherwise. */
  error: string | null;
  error_code: string | null;
  /** Revealed in the job once processing starts: the provider has the work then. */
  provider_request_id: string;
}

/**
 * A job (spec §2.3). The first fields are the public Job, brought up to the clock by
 * `settleJobs`, all but `result`: a completed job's result is built from the seed each time the job
 * is read (src/resources/jobs/schemas.ts), never stored, so settling stays O(1) and a job stays
 * small. The last four are internal and never leave through /v1.
 */
export interface JobRecord {
  id: string;
  object: 'job';
  type: JobType;
  status: JobStatus;
  model: string;
  progress: number;
  input: CrawlInput;
  error: string | null;
  error_code: string | null;
  credits_used: number;
  provider_request_id: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Internal: the job's whole course, decided at creation. */
  timeline: JobTimeline;
  /** Internal: credits charged when (and only if) the job completes. */
  credits_cost: number;
  /** Internal: credits held back from the balance while the job is unfinished. */
  credits_hold: number;
  /** Internal: units of work, known at creation (for a crawl: the pages its result will hold). */
  units: number;
}

/** A customer: made by the template, created or matched by email on a form submission (spec §4.5). */
export interface CustomerRecord {
  id: string;
  object: 'customer';
  name: string;
  /** Stored lower-case: customers are matched by email case-insensitively. */
  email: string;
  created_at: string;
}

export type FormFieldType = 'email' | 'text' | 'textarea' | 'number' | 'phone' | 'url' | 'select' | 'checkbox';

/** A typed form field (contract §3.2). */
export interface FormField {
  id: string;
  field_type: FormFieldType;
  label: string;
  required: boolean;
  /** Choices of `select` and `checkbox` fields; `[]` for the others (and for a single consent checkbox). */
  options: string[];
}

export interface FormRecord {
  id: string;
  object: 'form';
  name: string;
  fields: FormField[];
  /** What a submission delivers: a `digital_download` experience of the account, or null. */
  lead_magnet_experience_id: string | null;
  created_at: string;
}

/** One answer of a submission, as spec §2.4 lists it. */
export interface FormAnswer {
  field_type: FormFieldType;
  label: string;
  required: boolean;
  value: string;
  options: string[];
}

export interface FormSubmissionRecord {
  id: string;
  object: 'form_submission';
  form_id: string;
  answers: FormAnswer[];
  respondent_type: 'customer';
  respondent_id: string;
  created_at: string;
}

/** A lead-magnet delivery triggered by a form submission (spec §6). */
export interface DeliveryRecord {
  id: string;
  object: 'delivery';
  form_id: string;
  form_submission_id: string;
  customer_id: string;
  email: string;
  experience_id: string | null;
  channel: 'email';
  status: 'sent';
  created_at: string;
}

export interface InboxRecord {
  object: 'inbox';
  id: string;
  address: string;
  local_part: string;
  domain: string;
  display_name: string;
  status: 'active';
  metadata: Record<string, unknown>;
  created_at: string;
}

export interface MessageAttachment {
  attachment_id: string;
  filename: string;
  content_type: string;
  size: number;
  inline: boolean;
}

export interface MessageRecord {
  object: 'message';
  id: string;
  thread_id: string;
  inbox_id: string;
  direction: 'inbound' | 'outbound';
  status: 'received' | 'sent';
  message_id: string;
  in_reply_to: string | null;
  references: string[];
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string | null;
  subject: string;
  preview: string;
  labels: string[];
  suppressed: string[];
  delivery: Record<string, unknown>;
  attachments: MessageAttachment[];
  text: string;
  html: string;
  timestamp: string;
  created_at: string;
}

export const EXPERIENCE_TYPES = [
  'digital_download',
  'course',
  'written_content',
  'website_embed',
  'link',
  'forum',
  'discord_server',
  'telegram',
  'event',
  'event_type',
] as const;
export type ExperienceType = (typeof EXPERIENCE_TYPES)[number];

export const ACCESS_TYPES = ['public', 'secret', 'private'] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

export interface ExperienceRecord {
  id: string;
  object: 'experience';
  name: string;
  slug: string;
  description: string;
  access_type: AccessType;
  created_at: string;
  updated_at: string;
  type: ExperienceType;
  /** Kept equal to the number of this experience's grants whose status is `active`. */
  active_grants_count: number;
  details: Record<string, unknown>;
}

export interface PriceVariantRecord {
  id: string;
  object: 'price_variant';
  name: string;
  amount: number;
  currency: string;
  interval: 'one_time' | 'month' | 'year';
  experience_ids: string[];
  created_at: string;
}

/** Access to one experience, granted to one customer through one price variant. */
export interface GrantRecord {
  id: string;
  object: 'grant';
  customer_id: string;
  experience_id: string;
  price_variant_id: string;
  status: 'active' | 'revoked';
  granted_at: string;
  revoked_at: string | null;
}

export interface DiscountRecord {
  id: string;
  object: 'discount';
  slug: string;
  name: string;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  max_redemptions: number | null;
  times_redeemed: number;
  expires_at: string | null;
  created_at: string;
}

export const LOCATION_TYPES = ['zoom', 'google_meet', 'custom_link', 'physical_address'] as const;
export const REPEAT_FREQUENCIES = ['never', 'day', 'week', 'month', 'year'] as const;

export interface EventSessionRecord {
  id: string;
  object: 'event_session';
  experience_id: string;
  title: string;
  description: string;
  start_time: string;
  end_time: string;
  location_type: (typeof LOCATION_TYPES)[number];
  location_details: string;
  allow_rsvp: boolean;
  /** null = no limit. */
  capacity: number | null;
  repeat_frequency: (typeof REPEAT_FREQUENCIES)[number];
  created_at: string;
}

/** Where conversion events go: a pixel / dataset of one ad account (`account_id`, `adacct_…`). */
export interface AdDestinationRecord {
  id: string;
  object: 'ad_destination';
  account_id: string;
  platform: 'meta' | 'google_ads' | 'tiktok' | 'pinterest';
  name: string;
  pixel_id: string;
  created_at: string;
}

/**
 * One server-side conversion event received by `POST /v1/ads/conversions`: the sandbox's own
 * members, and every member of the event as sent (spec §4.6 does not show its shape), with a
 * `user_data` email and phone normalised and SHA-256 hashed.
 */
export interface ConversionRecord {
  id: string;
  object: 'conversion';
  ad_account_id: string;
  destination_id: string;
  event_name: string;
  /** As sent: Unix seconds or an ISO 8601 date-time. */
  event_time: number | string;
  test: boolean;
  test_code: string | null;
  received_at: string;
  [member: string]: unknown;
}

/**
 * Every collection an account holds, keyed by its plural snake_case name (contract §3.2). Resource
 * modules narrow these types as they take ownership of a collection.
 */
export interface CollectionRecords {
  api_keys: ApiKeyRecord;
  forms: FormRecord;
  form_submissions: FormSubmissionRecord;
  customers: CustomerRecord;
  deliveries: DeliveryRecord;
  inboxes: InboxRecord;
  messages: MessageRecord;
  experiences: ExperienceRecord;
  price_variants: PriceVariantRecord;
  grants: GrantRecord;
  discounts: DiscountRecord;
  event_sessions: EventSessionRecord;
  ad_destinations: AdDestinationRecord;
  conversions: ConversionRecord;
  jobs: JobRecord;
}

export type CollectionName = keyof CollectionRecords;

/**
 * Every collection, once: a record keyed by `CollectionName`, so the compiler refuses a collection
 * missing here (or one that does not exist), and each account gets every collection.
 */
const EVERY_COLLECTION: Readonly<Record<CollectionName, true>> = {
  api_keys: true,
  forms: true,
  form_submissions: true,
  customers: true,
  deliveries: true,
  inboxes: true,
  messages: true,
  experiences: true,
  price_variants: true,
  grants: true,
  discounts: true,
  event_sessions: true,
  ad_destinations: true,
  conversions: true,
  jobs: true,
};

export const COLLECTION_NAMES = Object.keys(EVERY_COLLECTION) as readonly CollectionName[];
