/**
 * `useTenant()`: one account per test file, created before its tests and deleted after them
 * (contract §4.1), so files that vitest runs in parallel workers never share an account, a key, a
 * rate-limit counter, a scenario or a clock.
 *
 * vitest is imported when this module loads and only if it is installed: the package's
 * `creator-commerce-mock/vitest` entry point must still load in a project without it (the
 * globalSetup part needs nothing of vitest), and hooks must be registered synchronously, when the
 * test file is collected, so a lazy import at the call would come too late.
 */
import type { AdminClient, CreateAccountInput } from './admin/client.js';
import { collectFailureArtifacts, DEFAULT_FAILURE_DIR, failureFolder, writeFailureArtifacts } from './admin/failure-artifacts.js';
import type { Tenant } from './admin/tenant-handle.js';

type Hooks = Pick<typeof import('vitest'), 'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach'> & {
  /** vitest 4 and later: attachments recorded on a test, also once it has failed (an annotation no longer can be). */
  recordArtifact?: RecordArtifact;
};
const hooks: Hooks | undefined = await import('vitest').then(
  // `recordArtifact` takes vitest's own artifact union; ours is a custom type (its registry is open).
  (vitest) => vitest as unknown as Hooks,
  () => undefined,
);

/** What `POST /__admin/accounts` takes (`plan`, `clock`, `fixture`, `template`, `pinned`, `name`), and: */
export interface UseTenantOptions extends CreateAccountInput {
  /** Reset the account before each test (fast: no new account, same token). Default false. */
  resetBeforeEach?: boolean;
  /**
   * When a test fails, attach the tenant's HAR (`GET /__admin/requests.har`), findings and snapshot
   * to it as vitest test artifacts, which CI reporters keep (docs/journal.md "A failed test's exchanges").
   * Default true.
   */
  attachOnFailure?: boolean;
}

/** The artifact type of the attachments, so a reporter can pick them out. */
export const FAILURE_ANNOTATION = 'creator-commerce-mock';
export { DEFAULT_FAILURE_DIR };

interface Attachment {
  contentType: string;
  body: string;
  bodyEncoding: 'utf-8';
}
/** vitest's `recordArtifact(task, artifact)`, typed for what is recorded here. */
type RecordArtifact = (task: never, artifact: { type: string; message: string; attachments: Attachment[] }) => Promise<unknown>;

/**
 * What is read of the failed test's context: its task, handed back to vitest as it came. Declared
 * here, not taken from vitest's types, so the package's declarations resolve in a project without
 * vitest (the `creator-commerce-mock/vitest` entry loads there too).
 */
export interface FailedTestContext {
  readonly task: { readonly name: string; readonly file?: { readonly filepath?: string; readonly name?: string } };
}

/**
 * The tenant's HAR, findings and snapshot (src/admin/failure-artifacts.ts), attached to the failed
 * test in `context`: as vitest test artifacts (type `creator-commerce-mock`, each with its
 * attachment) when the runner records them, else written to the failure folder
 * (`<CCM_FAILURE_DIR>/<test file>/<test name>/`, as for Jest). vitest refuses annotations once a
 * test has failed, so artifacts are what is left to an `afterEach`.
 */
export async function attachFailure(
  admin: AdminClient,
  accountId: string,
  context: FailedTestContext,
  record: RecordArtifact | null = hooks?.recordArtifact ?? null,
): Promise<void> {
  const artifacts = await collectFailureArtifacts(admin, accountId);
  if (record) {
    const task = context.task as never;
    for (const file of artifacts.files) {
      const attachment: Attachment = { contentType: file.contentType, body: file.body, bodyEncoding: 'utf-8' };
      await record(task, { type: FAILURE_ANNOTATION, message: file.message, attachments: [attachment] });
    }
    for (const note of artifacts.notes) {
      await record(task, {
        type: FAILURE_ANNOTATION,
        message: note,
        attachments: [{ contentType: 'text/plain', body: note, bodyEncoding: 'utf-8' }],
      });
    }
    return;
  }
  const file = context.task.file?.filepath ?? context.task.file?.name;
  writeFailureArtifacts(failureFolder({ name: context.task.name, ...(file === undefined ? {} : { file }) }), artifacts);
}

/**
 * Registers `beforeAll` (create), optional `beforeEach` (reset) and `afterAll` (delete) hooks, and
 * returns the tenant, usable inside tests and hooks: `tenant.token`, `tenant.clock.advance(60)`.
 */
export function useTenant(mock: { admin: AdminClient }, options: UseTenantOptions = {}): Tenant {
  if (!hooks) throw new Error('useTenant() registers vitest hooks: call it in a vitest test file.');
  const { resetBeforeEach = false, attachOnFailure = true, ...input } = options;
  let current: Tenant | undefined;
  hooks.beforeAll(async () => {
    current = await mock.admin.accounts.create(input);
  });
  if (resetBeforeEach) {
    hooks.beforeEach(async () => {
      await current?.reset();
    });
  }
  if (attachOnFailure) {
    hooks.afterEach(async (context) => {
      if (current && context.task.result?.state === 'fail') await attachFailure(mock.admin, current.id, context).catch(() => undefined);
    });
  }
  hooks.afterAll(async () => {
    // A test may have deleted it already; that is what this hook was going to do.
    await current?.delete().catch((error: { status?: number }) => {
      if (error.status !== 404) throw error;
    });
    current = undefined;
  });
  return new Proxy({} as Tenant, {
    get(_, property) {
      if (!current)
        throw new Error(
          `useTenant(): the tenant exists inside tests and hooks (it is created in beforeAll); read '${String(property)}' there.`,
        );
      return Reflect.get(current, property) as unknown;
    },
  });
}
