/**
 * Checks a snapshot sent to `POST /__admin/accounts` (contract §5.3): another version, or a damaged
 * one (a member missing, of the wrong type, a record in the wrong list, two records with one id),
 * is refused with the member named as a dotted path from `snapshot` (`snapshot.records.forms.2.id`),
 * before anything is created. Records are held to what the sandbox's own code relies on (ids, object
 * names, instants, a job's timeline); their other members are kept as sent.
 */
import { isInClockRange, parseInstant } from '../clock/virtual-clock.js';
import { isEventType } from '../operations/event-types.js';
import { endpointBudgetProblem } from '../webhooks/endpoints.js';
import type { WebhookEndpoint } from '../webhooks/records.js';
import { RECORD_COLLECTIONS, RECORD_OBJECTS, SNAPSHOT_VERSION, type AccountSnapshot } from './shape.js';

/** A damaged or unsupported snapshot: `path` names the member, `message` says what is wrong. */
export class SnapshotProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotProblem';
  }
}

type Json = Record<string, unknown>;

const TOP_MEMBERS = ['object', 'version', 'account', 'credits', 'clock', 'api_keys', 'records', 'jobs', 'webhook_endpoints'];
// What a Bearer header can carry (src/http/identify-caller.ts).
const TOKEN = /^[\x21-\x7e]{1,512}$/;
const ID = /^[\x21-\x7e]{1,255}$/;
const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'];
const TIMELINE_NUMBERS = ['queued_at_ms', 'started_at_ms', 'processing_ms', 'ends_at_ms', 'ends_at_progress'];

function fail(path: string, message: string): never {
  throw new SnapshotProblem(path, message);
}

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

function number(value: unknown, path: string, min = Number.NEGATIVE_INFINITY): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
    fail(path, min === 0 ? 'must be a number ≥ 0' : 'must be a finite number');
  return value;
}

function instant(value: unknown, path: string, nullable = false): void {
  if (nullable && value === null) return;
  const ms = parseInstant(value);
  if (ms === undefined || !isInClockRange(ms)) fail(path, `must be an ISO 8601 date-time with a time zone${nullable ? ', or null' : ''}`);
}

function oneOf<T>(value: unknown, allowed: readonly T[], path: string): T {
  if (!allowed.includes(value as T)) fail(path, `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}`);
  return value as T;
}

/** Records of one list: objects with their collection's `object`, and ids unique in the list. */
function records(value: unknown, path: string, objectName: string, each?: (record: Json, at: string) => void): void {
  const seen = new Set<string>();
  array(value, path).forEach((item, index) => {
    const at = `${path}.${index}`;
    const record = object(item, at);
    const id = string(record.id, `${at}.id`, ID);
    if (seen.has(id)) fail(`${at}.id`, `repeats the id ${id} of an earlier record`);
    seen.add(id);
    if (record.object !== objectName) fail(`${at}.object`, `must be "${objectName}"`);
    if ('created_at' in record) instant(record.created_at, `${at}.created_at`);
    each?.(record, at);
  });
}

function checkKey(key: Json, at: string, tokens: Set<string>): void {
  const token = string(key.token, `${at}.token`, TOKEN);
  if (tokens.has(token)) fail(`${at}.token`, 'repeats the token of an earlier key');
  tokens.add(token);
  oneOf(key.access, ['full', 'read_only'], `${at}.access`);
  for (const member of ['last_used_at', 'expires_at', 'revoked_at']) instant(key[member], `${at}.${member}`, true);
  if (key.name !== null && typeof key.name !== 'string') fail(`${at}.name`, 'must be a string or null');
  string(key.last4, `${at}.last4`);
  string(key.token_type, `${at}.token_type`);
}

function checkJob(job: Json, at: string): void {
  oneOf(job.status, JOB_STATUSES, `${at}.status`);
  const timeline = object(job.timeline, `${at}.timeline`);
  for (const member of TIMELINE_NUMBERS) number(timeline[member], `${at}.timeline.${member}`);
  oneOf(timeline.outcome, ['completed', 'failed', 'cancelled'], `${at}.timeline.outcome`);
  for (const member of ['credits_cost', 'credits_hold', 'units', 'progress', 'credits_used']) number(job[member], `${at}.${member}`, 0);
  object(job.input, `${at}.input`);
}

function checkEndpoint(endpoint: Json, at: string, accountId: string): void {
  if (endpoint.account_id !== accountId) fail(`${at}.account_id`, `must be the snapshot's account id (${accountId})`);
  const url = string(endpoint.url, `${at}.url`);
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) fail(`${at}.url`, 'must be an absolute http or https URL');
  array(endpoint.events, `${at}.events`).forEach((type, index) => {
    if (type !== '*' && (typeof type !== 'string' || !isEventType(type))) fail(`${at}.events.${index}`, 'must be "*" or an event type');
  });
  string(endpoint.secret, `${at}.secret`);
  oneOf(endpoint.status, ['enabled'], `${at}.status`);
}

/** The snapshot, checked; throws SnapshotProblem naming the first member that is wrong. */
export function decodeSnapshot(raw: unknown): AccountSnapshot {
  const top = object(raw, 'snapshot');
  if (top.object !== 'account_snapshot') fail('snapshot.object', 'must be "account_snapshot"');
  if (top.version !== SNAPSHOT_VERSION) {
    fail('snapshot.version', `this sandbox loads snapshots of version ${SNAPSHOT_VERSION}; got ${JSON.stringify(top.version ?? null)}`);
  }
  const unknown = Object.keys(top).find((member) => !TOP_MEMBERS.includes(member));
  if (unknown !== undefined) fail(`snapshot.${unknown}`, 'is not a member of a version 1 snapshot');

  const account = object(top.account, 'snapshot.account');
  const accountId = string(account.id, 'snapshot.account.id', ID);
  string(account.name, 'snapshot.account.name');
  oneOf(account.plan, ['free', 'paid'], 'snapshot.account.plan');
  instant(account.created_at, 'snapshot.account.created_at');

  const credits = object(top.credits, 'snapshot.credits');
  number(credits.balance, 'snapshot.credits.balance');
  number(credits.used, 'snapshot.credits.used', 0);

  const clock = object(top.clock, 'snapshot.clock');
  instant(clock.now, 'snapshot.clock.now');
  oneOf(clock.mode, ['running', 'frozen'], 'snapshot.clock.mode');
  if (typeof clock.shared !== 'boolean') fail('snapshot.clock.shared', 'must be true or false');

  const tokens = new Set<string>();
  records(top.api_keys, 'snapshot.api_keys', 'api_key', (key, at) => checkKey(key, at, tokens));
  // Every account is born with a key and keys are never deleted (revoked ones stay): the creation answers the first.
  if ((top.api_keys as unknown[]).length === 0) fail('snapshot.api_keys', 'must hold at least one key');

  const lists = object(top.records, 'snapshot.records');
  const extra = Object.keys(lists).find((name) => !(RECORD_COLLECTIONS as readonly string[]).includes(name));
  if (extra !== undefined) fail(`snapshot.records.${extra}`, 'is not a collection of an account');
  for (const name of RECORD_COLLECTIONS) records(lists[name], `snapshot.records.${name}`, RECORD_OBJECTS[name]);

  records(top.jobs, 'snapshot.jobs', 'job', checkJob);
  records(top.webhook_endpoints, 'snapshot.webhook_endpoints', 'webhook_endpoint', (endpoint, at) =>
    checkEndpoint(endpoint, at, accountId),
  );
  // An account loaded is held to the endpoint budget of any other (src/webhooks/endpoints.ts).
  const overBudget = endpointBudgetProblem(top.webhook_endpoints as WebhookEndpoint[]);
  if (overBudget !== undefined) fail('snapshot.webhook_endpoints', overBudget);
  return raw as AccountSnapshot;
}
