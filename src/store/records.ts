/**
 * Record shapes held by the store. API-facing views are built from these by each resource module;
 * internal fields (secrets, access, revocation) never leave through /v1.
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
 * `settleJobs`; the last three are internal and never leave through /v1.
 */
export interface JobRecord {
  id: string;
  object: 'job';
  type: JobType;
  status: JobStatus;
  model: string;
  progress: number;
  input: CrawlInput;
  result: Record<string, unknown> | null;
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
}

/** A record of any collection whose shape this core module does not need to know. */
export interface GenericRecord {
  id: string;
  [field: string]: unknown;
}

/**
 * Every collection an account holds, keyed by its plural snake_case name (contract §3.2). Resource
 * modules narrow these types as they take ownership of a collection.
 */
export interface CollectionRecords {
  api_keys: ApiKeyRecord;
  forms: GenericRecord;
  form_submissions: GenericRecord;
  customers: GenericRecord;
  deliveries: GenericRecord;
  inboxes: GenericRecord;
  messages: GenericRecord;
  experiences: GenericRecord;
  price_variants: GenericRecord;
  grants: GenericRecord;
  discounts: GenericRecord;
  event_sessions: GenericRecord;
  ad_destinations: GenericRecord;
  conversions: GenericRecord;
  jobs: JobRecord;
}

export type CollectionName = keyof CollectionRecords;

export const COLLECTION_NAMES = [
  'api_keys',
  'forms',
  'form_submissions',
  'customers',
  'deliveries',
  'inboxes',
  'messages',
  'experiences',
  'price_variants',
  'grants',
  'discounts',
  'event_sessions',
  'ad_destinations',
  'conversions',
  'jobs',
] as const satisfies readonly CollectionName[];
