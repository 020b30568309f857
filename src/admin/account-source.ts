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
import { BODY_LIMIT_BYTES } from '../http/json-body.js';
import type { JsonSchema } from '../operations/types.js';
import { deepFreeze } from '../store/derived-cache.js';
import { PINNED_RECORDS_SCHEMA, pinnedRecordsProblem, type PinnedRecords } from '../store/pinned-records.js';

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
  pinned: PINNED_RECORDS_SCHEMA,
};

export interface AccountSourceInput {
  fixture?: string;
  template?: AccountTemplate;
  pinned?: PinnedRecords;
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
  if (input.template !== undefined) return { template: deepFreeze(input.template), pinned };
  if (input.fixture === undefined || input.fixture === current.name) return { template: current.template, pinned };
  return { template: fixtureTemplate(input.fixture), pinned };
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
