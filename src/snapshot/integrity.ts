/**
 * What a snapshot's records must say together (contract §5.3, "damaged"), checked once each record
 * has passed its schema (src/snapshot/decode.ts): what the sandbox's own code keeps true of an
 * account and relies on when it serves one. Every id once in the whole snapshot (the store and the
 * id streams are keyed by id); every reference to a record of the snapshot (a grant's customer, a
 * message's inbox…); what records are looked up by (a customer's email, a slug, an inbox address)
 * unique; an experience's `active_grants_count` equal to its active grants; a key's `last4` the end
 * of its token; a job's state one its timeline gives, and its credits what that state charged.
 */
import { isInClockRange } from '../clock/virtual-clock.js';
import { isTerminal } from '../jobs/derive.js';
import type { JobRecord } from '../store/records.js';
import type { AccountSnapshot } from './shape.js';
import { fail } from './snapshot-problem.js';

type Row = { readonly id: string };

const member = (row: Row, name: string): unknown => (row as unknown as Record<string, unknown>)[name];

function uniqueIds(snapshot: AccountSnapshot): void {
  const seen = new Set<string>();
  const each = (rows: readonly Row[], path: string) =>
    rows.forEach((row, index) => {
      if (seen.has(row.id)) fail(`${path}.${index}.id`, `repeats the id ${row.id} of an earlier record`);
      seen.add(row.id);
    });
  each(snapshot.api_keys, 'snapshot.api_keys');
  for (const [name, rows] of Object.entries(snapshot.records)) each(rows, `snapshot.records.${name}`);
  each(snapshot.jobs, 'snapshot.jobs');
  each(snapshot.webhook_endpoints, 'snapshot.webhook_endpoints');
  snapshot.records.forms.forEach((form, i) =>
    form.fields.forEach((field, j) => {
      if (seen.has(field.id)) fail(`snapshot.records.forms.${i}.fields.${j}.id`, `repeats the id ${field.id}`);
      seen.add(field.id);
    }),
  );
}

/** `rows[i][member]` (a value or a list of them) must each name a record of `target`. */
function references(
  snapshot: AccountSnapshot,
  collection: keyof AccountSnapshot['records'],
  name: string,
  target: keyof AccountSnapshot['records'],
): void {
  const ids = new Set(snapshot.records[target].map((row) => row.id));
  (snapshot.records[collection] as readonly Row[]).forEach((row, index) => {
    const value = member(row, name);
    const path = `snapshot.records.${collection}.${index}.${name}`;
    if (Array.isArray(value)) {
      value.forEach((item, j) => {
        if (!ids.has(item as string)) fail(`${path}.${j}`, `names ${String(item)}, which is not one of the snapshot's ${target}`);
      });
    } else if (value !== null && !ids.has(value as string)) {
      fail(path, `names ${value as string}, which is not one of the snapshot's ${target}`);
    }
  });
}

function unique(rows: readonly Row[], name: string, path: string, key: (value: string) => string = (value) => value): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const value = key(member(row, name) as string);
    if (seen.has(value)) fail(`${path}.${index}.${name}`, `repeats the ${name} ${value} of an earlier record: records are looked up by it`);
    seen.add(value);
  });
}

function lookups(snapshot: AccountSnapshot): void {
  const { customers, experiences, discounts, inboxes } = snapshot.records;
  customers.forEach((customer, index) => {
    if (customer.email !== customer.email.toLowerCase())
      fail(`snapshot.records.customers.${index}.email`, 'must be lower-case: customers are matched by email case-insensitively');
  });
  unique(customers, 'email', 'snapshot.records.customers');
  unique(experiences, 'slug', 'snapshot.records.experiences');
  unique(discounts, 'slug', 'snapshot.records.discounts', (slug) => slug.toLowerCase());
  inboxes.forEach((inbox, index) => {
    if (inbox.address !== `${inbox.local_part}@${inbox.domain}`)
      fail(`snapshot.records.inboxes.${index}.address`, 'must be local_part@domain');
  });
  unique(inboxes, 'address', 'snapshot.records.inboxes', (address) => address.toLowerCase());
}

function counters(snapshot: AccountSnapshot): void {
  const active = new Map<string, number>();
  for (const grant of snapshot.records.grants) {
    if (grant.status === 'active') active.set(grant.experience_id, (active.get(grant.experience_id) ?? 0) + 1);
  }
  snapshot.records.experiences.forEach((experience, index) => {
    const expected = active.get(experience.id) ?? 0;
    if (experience.active_grants_count !== expected) {
      fail(`snapshot.records.experiences.${index}.active_grants_count`, `must be ${expected}, the number of its active grants`);
    }
  });
}

/** A job's timeline as src/jobs/timeline.ts builds it, and a state and credits it gives (src/jobs/derive.ts, settle.ts). */
function checkJob(job: JobRecord, at: string): void {
  const t = job.timeline;
  // Instants the clock can reach and write as ISO 8601 (a job's times are written from them).
  for (const member of ['queued_at_ms', 'started_at_ms', 'ends_at_ms'] as const) {
    if (!isInClockRange(t[member]))
      fail(`${at}.timeline.${member}`, 'must be an instant in milliseconds within the range a clock can hold');
  }
  if (t.started_at_ms <= t.queued_at_ms) fail(`${at}.timeline.started_at_ms`, 'must be after queued_at_ms');
  if (t.ends_at_ms < t.started_at_ms) fail(`${at}.timeline.started_at_ms`, 'must not be after ends_at_ms');
  if (t.outcome === 'completed' && t.ends_at_progress !== 100) fail(`${at}.timeline.ends_at_progress`, 'must be 100 for a completed job');
  const runMs = t.outcome === 'completed' ? t.processing_ms : Math.round((t.processing_ms * t.ends_at_progress) / 100);
  if (t.started_at_ms + runMs !== t.ends_at_ms) {
    fail(
      `${at}.timeline.processing_ms`,
      'must agree with started_at_ms, ends_at_ms and ends_at_progress (ends_at_ms = started_at_ms + the processing up to ends_at_progress)',
    );
  }
  const state = `${at}.status`;
  if (isTerminal(job.status)) {
    if (job.status !== t.outcome) fail(state, `must be the timeline's outcome (${t.outcome}) once the job has ended`);
    if (job.completed_at === null) fail(state, `is ${job.status} but completed_at is null`);
    if (job.progress !== t.ends_at_progress) fail(`${at}.progress`, `must be the timeline's ends_at_progress (${t.ends_at_progress})`);
  } else {
    if (job.completed_at !== null) fail(state, `is ${job.status} but completed_at is set`);
    if (job.status === 'queued' && (job.started_at !== null || job.progress !== 0)) fail(state, 'is queued but the job has started');
    if (job.status === 'processing' && job.started_at === null) fail(state, 'is processing but started_at is null');
  }
  // Charged once, when first seen completed (src/jobs/settle.ts).
  const charged = job.status === 'completed' ? job.credits_cost : 0;
  if (job.credits_used !== charged)
    fail(`${at}.credits_used`, `must be ${charged} for a ${job.status} job of credits_cost ${job.credits_cost}`);
}

/** Throws SnapshotProblem naming the first member that disagrees with the rest of the snapshot. */
export function checkIntegrity(snapshot: AccountSnapshot): void {
  uniqueIds(snapshot);
  snapshot.api_keys.forEach((key, index) => {
    if (!key.token.endsWith(key.last4)) fail(`snapshot.api_keys.${index}.last4`, "must be the last four characters of the key's token");
  });
  const tokens = new Set<string>();
  snapshot.api_keys.forEach((key, index) => {
    if (tokens.has(key.token)) fail(`snapshot.api_keys.${index}.token`, 'repeats the token of an earlier key');
    tokens.add(key.token);
  });
  references(snapshot, 'forms', 'lead_magnet_experience_id', 'experiences');
  references(snapshot, 'form_submissions', 'form_id', 'forms');
  references(snapshot, 'form_submissions', 'respondent_id', 'customers');
  references(snapshot, 'deliveries', 'form_id', 'forms');
  references(snapshot, 'deliveries', 'form_submission_id', 'form_submissions');
  references(snapshot, 'deliveries', 'customer_id', 'customers');
  references(snapshot, 'deliveries', 'experience_id', 'experiences');
  references(snapshot, 'messages', 'inbox_id', 'inboxes');
  references(snapshot, 'price_variants', 'experience_ids', 'experiences');
  references(snapshot, 'grants', 'customer_id', 'customers');
  references(snapshot, 'grants', 'experience_id', 'experiences');
  references(snapshot, 'grants', 'price_variant_id', 'price_variants');
  references(snapshot, 'event_sessions', 'experience_id', 'experiences');
  references(snapshot, 'conversions', 'destination_id', 'ad_destinations');
  lookups(snapshot);
  counters(snapshot);
  snapshot.jobs.forEach((job, index) => checkJob(job, `snapshot.jobs.${index}`));
}
