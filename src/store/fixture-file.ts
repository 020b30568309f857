/**
 * Fixture files are data: JSON validated at load against FIXTURE_SCHEMA. A bad file stops start-up
 * with a FixtureError naming the file and the JSON path inside it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { DataFileError } from '../errors/data-file-error.js';
import { DeprecationRuleError, parseDeprecation, type DeprecationConfig, type DeprecationInfo } from '../protocol/deprecation.js';
import type { FixtureJobSettings } from '../jobs/settings.js';
import { ConfigError } from '../config/options.js';
import { FIXTURES_DIR } from '../package-dirs.js';
import { validate as generatedFixtureValidator } from './fixture-validator.generated.js';
import { pinnedRecordsProblem, type PinnedRecords } from './pinned-records.js';
export { FIXTURE_SCHEMA } from './fixture-schema.js';

export interface FixtureApiKey {
  id: string;
  name?: string | null;
  token: string;
  access?: 'full' | 'read_only';
  expires_at?: string | null;
}

export interface FixtureAccount {
  id: string;
  name: string;
  plan: 'free' | 'paid';
  credits?: number;
  api_keys: FixtureApiKey[];
  /** Fill the account's collections from the template (default true). */
  populate?: boolean;
  /** Seeded records with fixed, documented ids and slugs (see pinned-records.ts). */
  pinned?: PinnedRecords;
}

/** How many records of each kind a new account gets; generated with seeded faker. */
export interface AccountTemplate {
  credits: { free: number; paid: number };
  counts: Record<string, number>;
}

export interface Fixture {
  description: string;
  accounts: FixtureAccount[];
  template: AccountTemplate;
  /** Operations marked deprecated from boot; see the README's "Deprecation" section. */
  deprecations?: DeprecationConfig[];
  /** Job durations and costs per job type; defaults in src/jobs/settings.ts (README "Jobs"). */
  jobs?: FixtureJobSettings;
}

export interface LoadedFixture extends Fixture {
  name: string;
  file: string;
}


export class FixtureError extends DataFileError {
  constructor(file: string, pointer: string, detail: string) {
    super('fixture', file, pointer, detail);
    this.name = 'FixtureError';
  }
}

/** A name under fixtures/ (`default`) or a path to a JSON file. */
export function resolveFixturePath(nameOrPath: string): string {
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');
  return looksLikePath ? path.resolve(nameOrPath) : path.join(FIXTURES_DIR, `${nameOrPath}.json`);
}

/**
 * FIXTURE_SCHEMA's validator, generated ahead of time (`npm run generate`; ajv standalone code) so
 * start-up does not compile the schema. test/fixture-validator.test.ts keeps it in step with the schema.
 */
const validateFixture = generatedFixtureValidator as unknown as ValidateFunction;

export function parseFixture(raw: unknown, file: string): Fixture {
  const validate = validateFixture;
  if (!validate(raw)) {
    const first = validate.errors?.[0];
    const pointer = first?.instancePath ?? '';
    let detail = first?.message ?? 'invalid';
    if (first?.keyword === 'additionalProperties') detail = `unknown field '${String(first.params.additionalProperty)}'`;
    if (first?.keyword === 'enum') detail = `must be one of ${(first.params.allowedValues as unknown[]).join(', ')}`;
    if (first?.keyword === 'required') detail = `missing field '${String(first.params.missingProperty)}'`;
    if (first?.keyword === 'format') detail = 'must be an ISO 8601 date-time with a time zone (e.g. 2026-01-01T00:00:00Z)';
    throw new FixtureError(file, pointer || '/', detail);
  }
  const fixture = raw as Fixture;
  const seenAccounts = new Set<string>();
  const seenKeys = new Set<string>();
  const seenTokens = new Set<string>();
  const seenPinnedIds = new Set<string>();
  fixture.accounts.forEach((account, i) => {
    if (seenAccounts.has(account.id)) throw new FixtureError(file, `/accounts/${i}/id`, `duplicate account id '${account.id}'`);
    seenAccounts.add(account.id);
    const pinnedProblem = account.pinned && pinnedRecordsProblem(account.pinned, `/accounts/${i}/pinned`, seenPinnedIds);
    if (pinnedProblem) throw new FixtureError(file, pinnedProblem.pointer, pinnedProblem.detail);
    account.api_keys.forEach((key, j) => {
      if (seenKeys.has(key.id)) throw new FixtureError(file, `/accounts/${i}/api_keys/${j}/id`, `duplicate key id '${key.id}'`);
      if (seenTokens.has(key.token)) throw new FixtureError(file, `/accounts/${i}/api_keys/${j}/token`, 'duplicate token');
      seenKeys.add(key.id);
      seenTokens.add(key.token);
    });
  });
  const deprecated = new Set<string>();
  (fixture.deprecations ?? []).forEach((entry, i) => {
    try {
      parseDeprecation(entry);
    } catch (error) {
      if (!(error instanceof DeprecationRuleError)) throw error;
      throw new FixtureError(file, `/deprecations/${i}${error.field ? `/${error.field}` : ''}`, error.message);
    }
    if (deprecated.has(entry.operation_id)) {
      throw new FixtureError(file, `/deprecations/${i}/operation_id`, `operation '${entry.operation_id}' is listed twice`);
    }
    deprecated.add(entry.operation_id);
  });
  return fixture;
}

/** How a fixture file is named in messages: relative to the working directory when that is shorter. */
export function shownFixturePath(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

export function loadFixture(nameOrPath: string): LoadedFixture {
  const file = resolveFixturePath(nameOrPath);
  const shown = shownFixturePath(file);
  if (!existsSync(file)) throw new FixtureError(shown, '', 'file not found');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new FixtureError(shown, '', `not valid JSON (${(error as Error).message})`);
  }
  return { ...parseFixture(raw, shown), name: path.basename(file, '.json'), file };
}

/**
 * Refuses a deprecation of an operation that does not exist (a typo would otherwise silently mark
 * nothing), naming the fixture file and path, or the option.
 */
export function checkDeprecatedOperations(fixture: LoadedFixture, fromOptions: readonly DeprecationInfo[], known: readonly string[]): void {
  const hint = `known operations: ${known.join(', ')}`;
  (fixture.deprecations ?? []).forEach((entry, i) => {
    if (!known.includes(entry.operation_id)) {
      throw new FixtureError(shownFixturePath(fixture.file), `/deprecations/${i}/operation_id`, `unknown operation '${entry.operation_id}' (${hint})`);
    }
  });
  fromOptions.forEach((entry, i) => {
    if (!known.includes(entry.operationId)) throw new ConfigError(`deprecations[${i}].operation_id`, `unknown operation '${entry.operationId}' (${hint})`);
  });
}
