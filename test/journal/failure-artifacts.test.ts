/**
 * Contract §5.3 for the runners without vitest's artifacts (src/admin/failure-artifacts.ts): the
 * Playwright helper attaches a failed test's tenant HAR, findings and snapshot to its `testInfo`,
 * and only when the test did not end as expected; the Jest helper writes them into
 * `<dir>/<test file>/<test name>/`. test/package/recipes.test.ts runs both recipes' failing tests.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachFailureArtifacts, failureFolder, fileSafe, saveFailureArtifacts } from '../../src/admin/failure-artifacts.js';
import { bearer, startServer } from '../support/harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ccm-artifacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function testInfo(status: string) {
  const attached: Array<{ name: string; contentType: string; body: string }> = [];
  return {
    attached,
    status,
    expectedStatus: 'passed',
    attach: (name: string, options: { body: string; contentType: string }) => Promise.resolve(void attached.push({ name, ...options })),
  };
}

describe('failure artifacts for Playwright Test and Jest (contract §5.3)', () => {
  it("Playwright: a test that did not end as expected gets its tenant's HAR, findings and snapshot attached; one that did, nothing", async () => {
    const mock = await startServer();
    try {
      const tenant = await mock.admin.accounts.create({});
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(tenant.token) });
      const failed = testInfo('failed');
      expect(await attachFailureArtifacts(mock.admin, tenant.id, failed)).toBe(true);
      expect(failed.attached.map((a) => [a.name, a.contentType])).toEqual([
        [`${tenant.id}.har`, 'application/json'],
        [`${tenant.id}.findings.json`, 'application/json'],
        [`${tenant.id}.snapshot.json`, 'application/json'],
      ]);
      expect(JSON.parse(failed.attached[0]!.body).log.entries).toHaveLength(1);
      expect(JSON.parse(failed.attached[2]!.body)).toMatchObject({ object: 'account_snapshot', account: { id: tenant.id } });
      const passed = testInfo('passed');
      expect(await attachFailureArtifacts(mock.admin, tenant.id, passed)).toBe(false);
      expect(passed.attached).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('Jest: written into <dir>/<test file relative to the working directory>/<test name>/, with a note of what could not be fetched', async () => {
    const mock = await startServer();
    const tenant = await mock.admin.accounts.create({});
    const test = { file: path.resolve('test', 'keys.test.js'), name: 'keys › creates a key' };
    const folder = await saveFailureArtifacts(mock.admin, tenant.id, test, dir);
    expect(folder).toBe(path.join(dir, 'test', 'keys.test.js', 'keys-creates-a-key'));
    expect(folder).toBe(failureFolder(test, dir));
    expect(readdirSync(folder).sort()).toEqual([`${tenant.id}.findings.json`, `${tenant.id}.har`, `${tenant.id}.snapshot.json`]);
    await mock.close();
    // A sandbox that went away: the test's own failure stays the one reported.
    const after = await saveFailureArtifacts(mock.admin, tenant.id, { name: 'after close' }, dir);
    expect(readdirSync(after)).toEqual([`${tenant.id}.notes.txt`]);
    expect(readFileSync(path.join(after, `${tenant.id}.notes.txt`), 'utf8')).toMatch(/^HAR of tenant .* not attached/);
  });

  it('Jest: an account id with path separators (a loaded snapshot may name it so) stays one file name inside the folder', async () => {
    const mock = await startServer();
    const made = await mock.admin.accounts.create({});
    const snapshot = (await mock.admin.accounts.snapshot(made.id)) as { account: { id: string } };
    await mock.admin.accounts.delete(made.id);
    snapshot.account.id = '../../../escaped';
    const loaded = await mock.admin.accounts.create({ snapshot: snapshot as never });
    // Three folders deep, so that a name taken as a path would land in `dir/escape`, not outside `dir`.
    const folder = await saveFailureArtifacts(
      mock.admin,
      loaded.account.id,
      { file: 'a/b.test.ts', name: 'escapes' },
      path.join(dir, 'escape'),
    );
    await mock.close();
    const name = fileSafe(loaded.account.id);
    expect(name).not.toMatch(/[\\/]/);
    expect(readdirSync(folder).sort()).toEqual([`${name}.findings.json`, `${name}.har`, `${name}.snapshot.json`]);
    expect(readdirSync(path.join(dir, 'escape'))).toEqual(['a']);
  });
});
