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
  jobs: GenericRecord;
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
