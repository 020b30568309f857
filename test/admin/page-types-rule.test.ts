/**
 * The dashboard page (src/ui/page/, browser code) reads the admin API's interface,
 * src/admin/api-types.ts, with `import type` only, and nothing else of the server: the layer check
 * (scripts/layers.mjs) enforces it on a throwaway project laid out like ours.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';

const CHECKER = path.join(PACKAGE_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(PACKAGE_ROOT, '.dependency-cruiser.mjs');
const root = mkdtempSync(path.join(tmpdir(), 'page-types-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'src/admin/api-types.ts': 'export interface Clock { now: string }\nexport const ROUTES = 1;\n',
  'src/admin/client.ts': 'export const client = 1;\n',
  'src/ui/page/vnode.ts': 'export const h = 1;\n',
  // Allowed: a type-only import of the interface, and the page's own modules.
  'src/ui/page/typed.ts':
    "import type { Clock } from '../../admin/api-types.js';\nimport { h } from './vnode.js';\nexport const c: Clock = { now: String(h) };\n",
  // Refused: a value import of the interface (it would reach the browser bundle), and any other server module.
  'src/ui/page/valued.ts': "import { ROUTES } from '../../admin/api-types.js';\nexport const r = ROUTES;\n",
  'src/ui/page/server.ts': "import type { client } from '../../admin/client.js';\nexport type C = typeof client;\n",
};

describe('the page imports the admin interface type-only, and nothing else of the server (scripts/layers.mjs)', () => {
  symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const run = spawnSync(process.execPath, [CHECKER, 'src', '--config', CONFIG], { cwd: root, encoding: 'utf8' });
  const output = run.stdout + run.stderr;

  it('refuses a value import of src/admin/api-types.ts, naming it', () => {
    expect(run.status).not.toBe(0);
    expect(output).toMatch(/layer-page:ui\/page\/types-only: src\/ui\/page\/valued\.ts → src\/admin\/api-types\.ts/);
  });

  it('refuses any other module of the server, even type-only', () => {
    expect(output).toMatch(/layer-page:ui\/page\/: src\/ui\/page\/server\.ts → src\/admin\/client\.ts/);
  });

  it("accepts a type-only import of the interface and the page's own modules", () => {
    expect(output).not.toMatch(/src\/ui\/page\/typed\.ts/);
  });
});
