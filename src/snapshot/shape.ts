/**
 * The account snapshot of contract §5.3, version 1: everything needed to recreate one account in
 * this sandbox or another started with the same seed and fixtures. Every record is the store's own
 * record (internal members included: a key's access and revocation, a job's timeline and credit
 * hold), so a loaded account answers the same bytes as the one it was taken from.
 */
import type { ClockMode } from '../clock/virtual-clock.js';
import type { ApiKeyRecord, CollectionName, CollectionRecords, JobRecord, Plan } from '../store/records.js';
import type { WebhookEndpoint } from '../webhooks/records.js';

export const SNAPSHOT_VERSION = 1;

/** The collections under `records`: every one but the keys (with their tokens) and the jobs, which have members of their own. */
export type RecordCollection = Exclude<CollectionName, 'api_keys' | 'jobs'>;

/** The `object` member of each collection's records: a record in the wrong list is a damaged snapshot. */
export const RECORD_OBJECTS: { readonly [K in RecordCollection]: CollectionRecords[K]['object'] } = {
  forms: 'form',
  form_submissions: 'form_submission',
  customers: 'customer',
  deliveries: 'delivery',
  inboxes: 'inbox',
  messages: 'message',
  experiences: 'experience',
  price_variants: 'price_variant',
  grants: 'grant',
  discounts: 'discount',
  event_sessions: 'event_session',
  ad_destinations: 'ad_destination',
  conversions: 'conversion',
};

export const RECORD_COLLECTIONS = Object.keys(RECORD_OBJECTS) as readonly RecordCollection[];

export interface AccountSnapshot {
  object: 'account_snapshot';
  version: typeof SNAPSHOT_VERSION;
  account: { id: string; name: string; plan: Plan; created_at: string };
  credits: { balance: number; used: number };
  /** The account's clock when taken: its instant (milliseconds kept), its mode, and whether it was the sandbox clock. */
  clock: { now: string; mode: ClockMode; shared: boolean };
  /** Oldest first, each with its secret `token`. */
  api_keys: Array<ApiKeyRecord & { token: string }>;
  /** Every collection, oldest first: the seeded records (derived when first read) included. */
  records: { [K in RecordCollection]: CollectionRecords[K][] };
  /** Oldest first, brought up to the account's clock when taken. */
  jobs: JobRecord[];
  /** Oldest first, with their signing secrets. */
  webhook_endpoints: WebhookEndpoint[];
}
