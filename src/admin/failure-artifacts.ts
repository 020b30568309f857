/**
 * What a failed test takes home (contract §5.3; docs/bring-a-failure-home.md), whatever its runner:
 * its tenant's HAR (`GET /__admin/requests.har`), findings and snapshot, fetched with the admin
 * client. Each runner hands them over its own way: vitest records them as test artifacts
 * (src/vitest-tenant.ts), Playwright Test attaches them to the test's result (`testInfo.attach`,
 * `attachFailureArtifacts`), and a runner without attachments (Jest, vitest before 4) gets a folder,
 * `<CCM_FAILURE_DIR or .creator-commerce-mock/failures>/<test file>/<test name>/`
 * (`saveFailureArtifacts`).
 *
 * A sandbox that went away must not hide the test's own failure behind another: what could not be
 * fetched is noted instead, and nothing here throws for it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AdminClient } from './client.js';

/** Where the folder of failed tests is when `CCM_FAILURE_DIR` does not say (relative to the working directory). */
export const DEFAULT_FAILURE_DIR = '.creator-commerce-mock/failures';
/** Entries of the HAR taken: the journal listing's largest page. */
const FAILURE_HAR_LIMIT = 1000;

export interface FailureFile {
  /** The file's name in a failure folder, and the attachment's: `<account id>.har`, `….findings.json`, `….snapshot.json`. */
  name: string;
  /** What it is, for a reader of the report. */
  message: string;
  contentType: 'application/json';
  body: string;
}

export interface FailureArtifacts {
  accountId: string;
  files: FailureFile[];
  /** What could not be fetched, and why (a sandbox stopped, one without findings). */
  notes: string[];
}

/** The tenant's HAR, findings and snapshot, fetched now; what fails is noted, never thrown. */
export async function collectFailureArtifacts(admin: AdminClient, accountId: string): Promise<FailureArtifacts> {
  const query = `account_id=${encodeURIComponent(accountId)}`;
  const files: FailureFile[] = [];
  const notes: string[] = [];
  const take = async (what: string, suffix: string, fetch: () => Promise<unknown>, indent: number | undefined, hint = '') => {
    try {
      const body = JSON.stringify(await fetch(), null, indent);
      files.push({
        // One file name whatever the id holds: a loaded snapshot may name its account `../x`.
        name: `${fileSafe(accountId)}.${suffix}`,
        message: `${what} of tenant ${accountId}${hint}`,
        contentType: 'application/json',
        body,
      });
    } catch (error) {
      // A sandbox without the route (an older one) answers 404: said, not attached.
      const reason = (error as { status?: number }).status === 404 ? 'this sandbox has no such route' : (error as Error).message;
      notes.push(`${what} of tenant ${accountId} not attached: ${reason}`);
    }
  };
  const har = () => admin.request('GET', `/requests.har?${query}&limit=${FAILURE_HAR_LIMIT}`);
  await take('HAR', 'har', har, 2, " (open in a browser's developer tools)");
  await take('findings', 'findings.json', () => admin.request('GET', `/findings?${query}&limit=100`), 2);
  // As the sandbox wrote it (no indentation): `POST /__admin/accounts {"snapshot": …}` loads the file as is.
  await take('snapshot', 'snapshot.json', () => admin.request('GET', `/accounts/${encodeURIComponent(accountId)}/snapshot`), undefined);
  return { accountId, files, notes };
}

/** A name as one path segment: what file systems and CI artifact uploads all accept. */
export function fileSafe(name: string): string {
  return (
    name
      .replace(/[^\w.-]+/g, '-')
      .replace(/^\.+/, '')
      .slice(0, 120) || '-'
  );
}

/** Which test failed: its file (absolute, or relative to the working directory) and its full name. */
export interface FailedTest {
  file?: string;
  name: string;
}

/** `<dir>/<test file>/<test name>`: the test file relative to the working directory, one folder per segment. */
export function failureFolder(test: FailedTest, dir: string = process.env.CCM_FAILURE_DIR ?? DEFAULT_FAILURE_DIR): string {
  const fileParts = test.file === undefined ? [] : path.relative(process.cwd(), path.resolve(test.file)).split(/[\\/]+/);
  return path.resolve(dir, ...fileParts.map(fileSafe), fileSafe(test.name));
}

/** Writes the files (and `<account id>.notes.txt` when something was missing) into `folder`, made if missing. */
export function writeFailureArtifacts(folder: string, artifacts: FailureArtifacts): string[] {
  mkdirSync(folder, { recursive: true });
  const written = artifacts.files.map((file) => {
    const target = path.join(folder, file.name);
    writeFileSync(target, file.body);
    return target;
  });
  if (artifacts.notes.length > 0) {
    const notes = path.join(folder, `${fileSafe(artifacts.accountId)}.notes.txt`);
    writeFileSync(notes, `${artifacts.notes.join('\n')}\n`);
    written.push(notes);
  }
  return written;
}

/**
 * For runners without attachments (Jest): the tenant's HAR, findings and snapshot written into the
 * failed test's folder (`failureFolder`). Returns the folder.
 */
export async function saveFailureArtifacts(admin: AdminClient, accountId: string, test: FailedTest, dir?: string): Promise<string> {
  const folder = failureFolder(test, dir);
  writeFailureArtifacts(folder, await collectFailureArtifacts(admin, accountId));
  return folder;
}

/**
 * What is read of Playwright Test's `testInfo`: declared here, not imported from @playwright/test,
 * so the package's types resolve in a project without it.
 */
export interface AttachingTestInfo {
  readonly status?: string;
  readonly expectedStatus: string;
  attach(name: string, options: { body: string; contentType: string }): Promise<void>;
}

/**
 * For Playwright Test, in a fixture's teardown (after `use`): when the test did not end as expected,
 * the tenant's HAR, findings and snapshot attached to its result (`testInfo.attach`), which its
 * reporters keep (the HTML report shows them, the JSON one holds them base64). Returns whether it attached.
 */
export async function attachFailureArtifacts(admin: AdminClient, accountId: string, testInfo: AttachingTestInfo): Promise<boolean> {
  if (testInfo.status === testInfo.expectedStatus) return false;
  const { files, notes } = await collectFailureArtifacts(admin, accountId);
  for (const file of files) await testInfo.attach(file.name, { body: file.body, contentType: file.contentType });
  if (notes.length > 0) await testInfo.attach(`${accountId}.notes.txt`, { body: `${notes.join('\n')}\n`, contentType: 'text/plain' });
  return true;
}
