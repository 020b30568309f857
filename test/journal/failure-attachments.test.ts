/** Contract §5.3: a failed test using a tenant takes its HAR, findings and snapshot with it (src/vitest-tenant.ts). */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachFailure, FAILURE_ANNOTATION } from '../../src/vitest-tenant.js';
import { bearer, startServer } from '../support/harness.js';

const task = { name: 'creates a key > with a name' } as never;

afterEach(() => {
  delete process.env.CCM_FAILURE_DIR;
});

describe('failure attachments of useTenant (contract §5.3)', () => {
  it("contract §5.3: attaches the tenant's HAR, findings and snapshot as vitest test artifacts, and says why findings are missing when the sandbox has no findings route", async () => {
    const mock = await startServer();
    try {
      const tenant = await mock.admin.accounts.create({});
      const other = await mock.admin.accounts.create({});
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(tenant.token) });
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(other.token) });
      const annotations: Array<{ message: string; type: string; attachment: { contentType: string; body: string } }> = [];
      const record = (
        _task: never,
        artifact: { type: string; message: string; attachments: Array<{ contentType: string; body: string }> },
      ) => {
        annotations.push({ message: artifact.message, type: artifact.type, attachment: artifact.attachments[0]! });
        return Promise.resolve();
      };
      await attachFailure(mock.admin, tenant.id, { task }, record);
      expect(annotations.map((a) => a.type)).toEqual([FAILURE_ANNOTATION, FAILURE_ANNOTATION, FAILURE_ANNOTATION]);
      const [har, findings, snapshot] = annotations;
      expect(har!.attachment.contentType).toBe('application/json');
      const log = JSON.parse(har!.attachment.body).log;
      // Only this tenant's exchanges.
      expect(log.entries.map((e: any) => e._account_id)).toEqual([tenant.id]);
      const hasFindings = (await fetch(`${mock.url}/__admin/findings`)).status !== 404;
      if (hasFindings) expect(findings!.message).toMatch(/^findings of tenant/);
      else expect(findings!.message).toMatch(/no such route/);
      // The snapshot as the sandbox gives it: loadable as it is.
      expect(snapshot!.message).toBe(`snapshot of tenant ${tenant.id}`);
      expect(snapshot!.attachment.body).toBe(await (await fetch(`${mock.url}/__admin/accounts/${tenant.id}/snapshot`)).text());
    } finally {
      await mock.close();
    }
  });

  it('contract §5.3: without test artifacts (vitest before 4) they are written to the failure folder, CCM_FAILURE_DIR', async () => {
    const mock = await startServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'ccm-failures-'));
    process.env.CCM_FAILURE_DIR = dir;
    try {
      const tenant = await mock.admin.accounts.create({});
      await fetch(`${mock.apiUrl}/status`, { headers: bearer(tenant.token) });
      await attachFailure(
        mock.admin,
        tenant.id,
        { task: { name: 'creates a key > with a name', file: { filepath: path.resolve('test/keys.test.ts') } } },
        null,
      );
      // <dir>/<test file, relative to the working directory>/<test name>/
      const folder = path.join(dir, 'test', 'keys.test.ts', 'creates-a-key-with-a-name');
      const files = readdirSync(folder);
      expect(files.sort()).toEqual([`${tenant.id}.findings.json`, `${tenant.id}.har`, `${tenant.id}.snapshot.json`]);
      expect(JSON.parse(readFileSync(path.join(folder, `${tenant.id}.har`), 'utf8')).log.entries).toHaveLength(1);
    } finally {
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sandbox that went away does not turn into a second failure', async () => {
    const mock = await startServer();
    const tenant = await mock.admin.accounts.create({});
    await mock.close();
    const notes: string[] = [];
    await attachFailure(mock.admin, tenant.id, { task }, (_task, artifact) => Promise.resolve(void notes.push(artifact.message)));
    expect(notes.length).toBe(3);
    expect(notes[0]).toMatch(/HAR of tenant .* not attached/);
    expect(notes[2]).toMatch(/snapshot of tenant .* not attached/);
  });
});
