/**
 * The snapshot document of contract §5.3, as one JSON Schema: what `GET /__admin/openapi.json`
 * publishes for `GET /accounts/{id}/snapshot` and the `snapshot` member of `POST /accounts`, and
 * what the loader (src/snapshot/decode.ts) holds a snapshot to. One declaration drives both: the
 * records are the record schemas the loader validates with (src/snapshot/record-schemas.ts), and
 * the loader takes its member lists and allowed values (top members, the account's members, plans,
 * clock modes) from here. What a schema cannot say (ids unique, references resolving, counters
 * agreeing, instants a clock can hold, endpoint URLs) the loader checks beside (integrity.ts).
 */
import type { JsonSchema } from '../operations/types.js';
import { timestampSchema } from '../operations/schemas.js';
import { RECORD_SCHEMAS, SNAPSHOT_ENDPOINT_SCHEMA, SNAPSHOT_JOB_SCHEMA, SNAPSHOT_KEY_SCHEMA } from './record-schemas.js';
import { RECORD_COLLECTIONS, SNAPSHOT_VERSION } from './shape.js';

type Properties = Record<string, JsonSchema>;

function closed(title: string, description: string, properties: Properties): JsonSchema {
  return { title, description, type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

const listOf = (items: JsonSchema, description: string, minItems = 0): JsonSchema => ({
  type: 'array',
  description,
  ...(minItems > 0 ? { minItems } : {}),
  items,
});

/** An account id as a snapshot may carry it: printable ASCII, as ids of fixtures and snapshots are. */
export const SNAPSHOT_ACCOUNT_ID_PATTERN = '^[\\x21-\\x7e]{1,255}$';
export const PLANS = ['free', 'paid'] as const;
export const CLOCK_MODES = ['running', 'frozen'] as const;

export const SNAPSHOT_ACCOUNT_SCHEMA = closed('AccountSnapshotAccount', 'The account itself.', {
  id: { type: 'string', pattern: SNAPSHOT_ACCOUNT_ID_PATTERN },
  name: { type: 'string', minLength: 1 },
  plan: { enum: [...PLANS] },
  created_at: timestampSchema,
});

const SNAPSHOT_CREDITS_SCHEMA = closed('AccountSnapshotCredits', 'The credit balance (may be negative after holds) and what was used.', {
  balance: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  used: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
});

const SNAPSHOT_CLOCK_SCHEMA = closed(
  'AccountSnapshotClock',
  "The account's clock when taken: its instant (milliseconds kept), its mode, and whether it was the sandbox clock.",
  { now: timestampSchema, mode: { enum: [...CLOCK_MODES] }, shared: { type: 'boolean' } },
);

const recordsProperties: Properties = {};
for (const name of RECORD_COLLECTIONS) recordsProperties[name] = listOf(RECORD_SCHEMAS[name], `Every ${name} record, oldest first.`);

const SNAPSHOT_RECORDS_SCHEMA = closed(
  'AccountSnapshotRecords',
  'Every collection of the account (but its keys and jobs), oldest first, the seeded records included: each record as the store keeps it.',
  recordsProperties,
);

/** The snapshot document, version 1. */
export const ACCOUNT_SNAPSHOT_SCHEMA = closed(
  'AccountSnapshot',
  'Everything needed to recreate one account here or in a sandbox started with the same seed and fixtures (contract §5.3). Checked member by member when loaded: a damaged snapshot is 422 naming the member.',
  {
    object: { const: 'account_snapshot' },
    version: { const: SNAPSHOT_VERSION },
    account: SNAPSHOT_ACCOUNT_SCHEMA,
    credits: SNAPSHOT_CREDITS_SCHEMA,
    clock: SNAPSHOT_CLOCK_SCHEMA,
    api_keys: listOf(SNAPSHOT_KEY_SCHEMA, 'Every key, oldest first, each with its secret `token`; an account always has one.', 1),
    records: SNAPSHOT_RECORDS_SCHEMA,
    jobs: listOf(SNAPSHOT_JOB_SCHEMA, "Every job, oldest first, brought up to the account's clock when taken."),
    webhook_endpoints: listOf(SNAPSHOT_ENDPOINT_SCHEMA, 'Every webhook endpoint, oldest first, with its signing secret.'),
  },
);

/** The members of a snapshot, of its account: what the loader refuses anything else beside. */
export const SNAPSHOT_MEMBERS = ACCOUNT_SNAPSHOT_SCHEMA.required as readonly string[];
export const SNAPSHOT_ACCOUNT_MEMBERS = SNAPSHOT_ACCOUNT_SCHEMA.required as readonly string[];
