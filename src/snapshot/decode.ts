/**
 * Checks a snapshot sent to `POST /__admin/accounts` (contract §5.3): another version, or a damaged
 * one, is refused with the member named as a dotted path from `snapshot`
 * (`snapshot.records.inboxes.3.display_name`, the path style of /v1's 422 `errors`), before anything
 * is created. Damaged means anything the sandbox could not have written itself, so that every
 * snapshot it loads is an account the /v1 code can serve:
 * - each record against its schema (src/snapshot/record-schemas.ts: the /v1 answer's own where
 *   there is one), so no member is missing, of another type or unknown (`__proto__` included);
 * - ids unique in the whole snapshot; every reference to a record of the snapshot;
 * - what is looked up by (emails, slugs, addresses) unique, and counters equal to what they count;
 * - a job's state agreeing with its timeline, and its credits with its state;
 * - keys whose token is well-formed and ends in their `last4`; instants the clock can hold.
 * The first problem found is the one named.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isInClockRange, parseInstant } from '../clock/virtual-clock.js';
import type { JsonSchema } from '../operations/types.js';
import { compileDataSchema, describeSchemaError, fieldName } from '../operations/validation.js';
import { checkIntegrity } from './integrity.js';
import { CLOCK_MODES, PLANS, SNAPSHOT_ACCOUNT_ID_PATTERN, SNAPSHOT_ACCOUNT_MEMBERS, SNAPSHOT_MEMBERS } from './document-schema.js';
import { RECORD_SCHEMAS, SNAPSHOT_ENDPOINT_SCHEMA, SNAPSHOT_JOB_SCHEMA, SNAPSHOT_KEY_SCHEMA } from './record-schemas.js';
import { endpointInputProblem } from '../webhooks/endpoint-input.js';
import { endpointBudgetProblem } from '../webhooks/endpoints.js';
import type { WebhookEndpoint } from '../webhooks/records.js';
import { RECORD_COLLECTIONS, RECORD_OBJECTS, SNAPSHOT_VERSION, type AccountSnapshot } from './shape.js';
import { fail, type Json } from './snapshot-problem.js';

export { SnapshotProblem } from './snapshot-problem.js';

const ID = new RegExp(SNAPSHOT_ACCOUNT_ID_PATTERN);

function object(value: unknown, path: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object');
  return value as Json;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value;
}

function string(value: unknown, path: string, pattern?: RegExp): string {
  if (typeof value !== 'string' || value === '') fail(path, 'must be a non-empty string');
  if (pattern && !pattern.test(value)) fail(path, `must match ${pattern.source}`);
  return value;
}

function credit(value: unknown, path: string, min: number): void {
  if (!Number.isSafeInteger(value) || (value as number) < min) fail(path, `must be an integer${min === 0 ? ' ≥ 0' : ''}`);
}

function instant(value: unknown, path: string): void {
  const ms = parseInstant(value);
  if (ms === undefined || !isInClockRange(ms))
    fail(path, 'must be an ISO 8601 date-time with a time zone, within the range a clock can hold');
}

function oneOf<T>(value: unknown, allowed: readonly T[], path: string): T {
  if (!allowed.includes(value as T)) fail(path, `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}`);
  return value as T;
}

/** Validators compiled at the first load, not at start-up: most sandboxes never load a snapshot. */
const compiled = new Map<JsonSchema, ValidateFunction>();
function validator(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = compileDataSchema(schema)));
  return validate;
}

/** ajv's first complaint about a record at `at`, as the member's path and what is wrong with it. */
function schemaProblem(error: ErrorObject, at: string, objectName: string): never {
  const name = fieldName(error);
  const path = name === '' ? at : `${at}.${name}`;
  if (error.keyword === 'required') fail(path, `is missing: every ${objectName} record has ${String(error.params.missingProperty)}`);
  if (error.keyword === 'additionalProperties') fail(path, `is not a member of a ${objectName} record`);
  fail(path, describeSchemaError(error));
}

/** One variant per experience type: the record's `type` picks the one it is held to. */
let experienceVariants: Map<unknown, JsonSchema> | undefined;
function experienceSchemaOf(record: Json, at: string): JsonSchema {
  experienceVariants ??= new Map(
    (RECORD_SCHEMAS.experiences.oneOf as JsonSchema[]).map((variant) => [
      (variant.properties as Record<string, JsonSchema>).type!.const,
      variant,
    ]),
  );
  const variant = experienceVariants.get(record.type);
  if (!variant) oneOf(record.type, [...experienceVariants.keys()], `${at}.type`);
  return variant!;
}

/** A list of records, each an object held to its schema, with its list's `object` and an instant the clock can hold. */
function records(value: unknown, path: string, objectName: string, schema: JsonSchema): void {
  array(value, path).forEach((item, index) => {
    const at = `${path}.${index}`;
    const record = object(item, at);
    if (record.object !== objectName) fail(`${at}.object`, `must be "${objectName}"`);
    const validate = validator(schema.oneOf ? experienceSchemaOf(record, at) : schema);
    if (!validate(record)) schemaProblem(validate.errors![0]!, at, objectName);
    if ('created_at' in record) instant(record.created_at, `${at}.created_at`);
  });
}

function checkEndpoint(endpoint: Json, at: string, accountId: string): void {
  if (endpoint.account_id !== accountId) fail(`${at}.account_id`, `must be the snapshot's account id (${accountId})`);
  // What POST /__admin/webhook_endpoints would refuse, a snapshot cannot bring in.
  const problem = endpointInputProblem(endpoint.url, endpoint.events);
  if (problem) fail(`${at}.${problem.member}`, problem.message);
}

/** The snapshot, checked; throws SnapshotProblem naming the first member that is wrong. */
export function decodeSnapshot(raw: unknown): AccountSnapshot {
  const top = object(raw, 'snapshot');
  if (top.object !== 'account_snapshot') fail('snapshot.object', 'must be "account_snapshot"');
  if (top.version !== SNAPSHOT_VERSION) {
    fail('snapshot.version', `this sandbox loads snapshots of version ${SNAPSHOT_VERSION}; got ${JSON.stringify(top.version ?? null)}`);
  }
  const unknown = Object.keys(top).find((member) => !SNAPSHOT_MEMBERS.includes(member));
  if (unknown !== undefined) fail(`snapshot.${unknown}`, 'is not a member of a version 1 snapshot');

  const account = object(top.account, 'snapshot.account');
  const extraInAccount = Object.keys(account).find((member) => !SNAPSHOT_ACCOUNT_MEMBERS.includes(member));
  if (extraInAccount !== undefined) fail(`snapshot.account.${extraInAccount}`, "is not a member of a snapshot's account");
  const accountId = string(account.id, 'snapshot.account.id', ID);
  string(account.name, 'snapshot.account.name');
  oneOf(account.plan, PLANS, 'snapshot.account.plan');
  instant(account.created_at, 'snapshot.account.created_at');

  const credits = object(top.credits, 'snapshot.credits');
  credit(credits.balance, 'snapshot.credits.balance', Number.MIN_SAFE_INTEGER);
  credit(credits.used, 'snapshot.credits.used', 0);

  const clock = object(top.clock, 'snapshot.clock');
  instant(clock.now, 'snapshot.clock.now');
  oneOf(clock.mode, CLOCK_MODES, 'snapshot.clock.mode');
  if (typeof clock.shared !== 'boolean') fail('snapshot.clock.shared', 'must be true or false');

  records(top.api_keys, 'snapshot.api_keys', 'api_key', SNAPSHOT_KEY_SCHEMA);
  // Every account is born with a key and keys are never deleted (revoked ones stay): the creation answers the first.
  if ((top.api_keys as unknown[]).length === 0) fail('snapshot.api_keys', 'must hold at least one key');

  const lists = object(top.records, 'snapshot.records');
  const extra = Object.keys(lists).find((name) => !(RECORD_COLLECTIONS as readonly string[]).includes(name));
  if (extra !== undefined) fail(`snapshot.records.${extra}`, 'is not a collection of an account');
  for (const name of RECORD_COLLECTIONS) records(lists[name], `snapshot.records.${name}`, RECORD_OBJECTS[name], RECORD_SCHEMAS[name]);

  records(top.jobs, 'snapshot.jobs', 'job', SNAPSHOT_JOB_SCHEMA);
  records(top.webhook_endpoints, 'snapshot.webhook_endpoints', 'webhook_endpoint', SNAPSHOT_ENDPOINT_SCHEMA);
  (top.webhook_endpoints as Json[]).forEach((endpoint, index) => checkEndpoint(endpoint, `snapshot.webhook_endpoints.${index}`, accountId));
  // An account loaded is held to the endpoint budget of any other (src/webhooks/endpoints.ts).
  const overBudget = endpointBudgetProblem(top.webhook_endpoints as WebhookEndpoint[]);
  if (overBudget !== undefined) fail('snapshot.webhook_endpoints', overBudget);

  const snapshot = raw as AccountSnapshot;
  checkIntegrity(snapshot);
  return snapshot;
}
