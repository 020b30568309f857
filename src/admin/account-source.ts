/**
 * Where `POST /__admin/accounts` takes a new account's records from (contract §3.2): the sandbox's
 * fixture template by default; `fixture`, the template of another fixture, named (a file under the
 * package's fixtures/) or as a path to a fixture file inside the server's working directory; or
 * `template` and `pinned` inline, in the shapes a fixture file gives them (docs/fixtures.md).
 *
 * A path never reaches outside the working directory (`..`, an absolute path elsewhere, a symbolic
 * link out of it): the admin API must not read arbitrary files of the host. Such a file is held to
 * the body limit, as the same data sent inline would be.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ApiError, emptyFieldErrors, validationFailed } from '../errors/api-error.js';
import { FixtureError, loadFixture, type AccountTemplate } from '../fixture/fixture-file.js';
import { ACCOUNT_TEMPLATE_SCHEMA } from '../fixture/fixture-schema.js';
import { BODY_LIMIT_BYTES } from '../protocol/body-limit.js';
import type { JsonSchema } from '../operations/types.js';
import { deepFreeze } from '../store/derived-cache.js';
import { pinnedRecordsProblem } from '../store/pinned-problems.js';
import { PINNED_RECORDS_SCHEMA, type PinnedRecords } from '../store/pinned-records.js';

/**
 * Bounds of what one request may ask to seed: an account's records are derived in one turn when first
 * read, so a request must not be able to ask for seconds of work. The default template seeds about
 * 150 records (~1.3 ms unloaded); a request may add up to 1,000 more (beyond what the sandbox's own
 * template seeds, which was the user's choice at boot and is not bounded here).
 */
export const ADMIN_PINNED_PER_COLLECTION = 1_000;
export const ADMIN_SEEDED_RECORDS = 1_000;

/** The members of `POST /__admin/accounts` that choose the records. */
export const ACCOUNT_SOURCE_PROPERTIES: Record<string, JsonSchema> = {
  fixture: {
    type: 'string',
    minLength: 1,
    maxLength: 1024,
    pattern: '^[^\\u0000]+$',
    description:
      'Take the template of this fixture: a name under the package fixtures/ (`default`), or a path to a fixture file inside the working directory.',
  },
  template: ACCOUNT_TEMPLATE_SCHEMA,
  pinned: boundedPinnedSchema(),
};

export interface AccountSourceInput {
  fixture?: string;
  template?: AccountTemplate;
  pinned?: PinnedRecords;
}

/** The fixture's pinned-records schema, with at most ADMIN_PINNED_PER_COLLECTION records per collection. */
function boundedPinnedSchema(): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(PINNED_RECORDS_SCHEMA.properties).map(([name, list]) => [name, { ...list, maxItems: ADMIN_PINNED_PER_COLLECTION }]),
  );
  return { ...PINNED_RECORDS_SCHEMA, properties };
}

/**
 * How many records an account seeds at most from a template and pinned records (every experience
 * counted as an event, for sessions), as README "What a new account holds" counts them.
 */
export function seededRecordEstimate(template: AccountTemplate, pinned: PinnedRecords = {}): number {
  const count = (kind: string, fallback: number) => template.counts[kind] ?? fallback;
  const atLeast = (kind: string, fallback: number, pins: readonly unknown[] | undefined) =>
    Math.max(count(kind, fallback), pins?.length ?? 0);
  const buyers = count('grants_per_price_variant', 3);
  const pinnedVariants = pinned.price_variants ?? [];
  const variants =
    Math.max(0, count('price_variants', 6) - pinnedVariants.length) * (1 + buyers * 3) +
    pinnedVariants.reduce((sum, variant) => sum + 1 + buyers * (variant.experience_ids?.length ?? 3), 0);
  const experiences = atLeast('experiences', 12, pinned.experiences);
  return (
    atLeast('customers', 8, pinned.customers) +
    experiences +
    variants +
    atLeast('discounts', 5, pinned.discounts) +
    experiences * count('event_sessions_per_event', 2) +
    (pinned.event_sessions?.length ?? 0) +
    atLeast('forms', 4, pinned.forms) +
    atLeast('inboxes', 2, pinned.inboxes) * (1 + count('messages_per_inbox', 12)) +
    atLeast('ad_accounts', 2, pinned.ad_destinations) * count('ad_destinations_per_ad_account', 2) +
    (pinned.ad_destinations?.length ?? 0)
  );
}

/** Refused (422 naming `param`) when a request would have an account seed more than ADMIN_SEEDED_RECORDS. */
function checkSize(estimate: number, param: string): void {
  if (estimate <= ADMIN_SEEDED_RECORDS) return;
  const errors = emptyFieldErrors();
  errors[param] = [
    `asks to seed about ${estimate} records; a request may ask for at most ${ADMIN_SEEDED_RECORDS} (beyond the sandbox template's own)`,
  ];
  throw validationFailed(errors);
}

/** A name, as `--fixtures` takes one: no separator, no `.json`. */
const FIXTURE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The template and pinned records of the new account; 422 naming the member (and the path in it) when unusable. */
export function accountSource(
  input: AccountSourceInput,
  current: { name: string; template: AccountTemplate },
): { template: AccountTemplate; pinned: PinnedRecords | undefined } {
  if (input.fixture !== undefined && input.template !== undefined) {
    throw validationFailed({ template: ['give either fixture or template, not both'] });
  }
  const pinned = input.pinned === undefined ? undefined : checkedPinned(input.pinned);
  let template = current.template;
  if (input.template !== undefined) template = deepFreeze(input.template);
  else if (input.fixture !== undefined && input.fixture !== current.name) template = fixtureTemplate(input.fixture);
  // What a request brings is bounded; the sandbox's own template was the user's choice at boot.
  const own = template === current.template ? seededRecordEstimate(template) : 0;
  checkSize(seededRecordEstimate(template, pinned) - own, pinned ? 'pinned' : input.template ? 'template.counts' : 'fixture');
  return { template, pinned };
}

function checkedPinned(pinned: PinnedRecords): PinnedRecords {
  // The ids of one account must be unique; other accounts' pinned ids do not matter (records are per account).
  const problem = pinnedRecordsProblem(pinned, '/pinned', new Set());
  if (problem) {
    const errors = emptyFieldErrors();
    errors[dotted(problem.pointer)] = [problem.detail];
    throw validationFailed(errors);
  }
  return deepFreeze(pinned);
}

/** `/pinned/forms/0/fields` -> `pinned.forms.0.fields`: how a 422 names a nested field (README "Errors"). */
function dotted(pointer: string): string {
  return pointer.slice(1).split('/').join('.');
}

function fixtureTemplate(nameOrPath: string): AccountTemplate {
  const isPath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');
  if (!isPath && !FIXTURE_NAME.test(nameOrPath)) {
    throw refused(`not a fixture name (${FIXTURE_NAME.source}) nor a path to a .json file: '${nameOrPath}'`);
  }
  const file = isPath ? fileInsideWorkingDirectory(nameOrPath) : nameOrPath;
  try {
    return loadFixture(file).template;
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    // Named as the caller named it, never by its place on the host's disk.
    if (error.detail === 'file not found') throw refused(`no such fixture: '${nameOrPath}'`);
    throw refused(`not a valid fixture: '${nameOrPath}'${error.pointer ? ` at ${error.pointer}` : ''}: ${error.detail}`);
  }
}

function fileInsideWorkingDirectory(given: string): string {
  const root = realpathSync(process.cwd());
  const outside = (file: string) => {
    const relative = path.relative(root, file);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative);
  };
  const resolved = path.resolve(root, given);
  if (outside(resolved)) throw refused(`must be a path inside the working directory: '${given}'`);
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    throw refused(`no such fixture: '${given}'`);
  }
  if (outside(real)) throw refused(`must be a path inside the working directory: '${given}'`);
  const stat = statSync(real);
  if (!stat.isFile()) throw refused(`no such fixture: '${given}'`);
  if (stat.size > BODY_LIMIT_BYTES) throw refused(`a fixture file here is at most ${BODY_LIMIT_BYTES} bytes: '${given}'`);
  return real;
}

function refused(message: string): ApiError {
  return new ApiError('validation_failed', { param: 'fixture', errors: { fixture: [message] } });
}
