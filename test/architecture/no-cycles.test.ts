/**
 * The dependency check refuses every import cycle in src/, type-only ones included: two modules that
 * type each other in a circle are one concept split in two, or a type that belongs lower. Checked on
 * a throwaway project laid out like ours, with the project's own rules (scripts/layers.mjs).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';

const CHECKER = path.join(PACKAGE_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(PACKAGE_ROOT, '.dependency-cruiser.mjs');
const root = mkdtempSync(path.join(tmpdir(), 'no-cycles-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  // A circle of types only, inside one unit.
  'src/http/context.ts': "import type { Reply } from './reply.js';\nexport interface Context { reply: Reply }\n",
  'src/http/reply.ts': "import type { Context } from './context.js';\nexport interface Reply { of(ctx: Context): void }\n",
  // A one-way type import: no circle.
  'src/http/writer.ts': "import type { Reply } from './reply.js';\nexport type Writer = Reply;\n",
};

describe('no import cycle in src/, type-only included (scripts/layers.mjs)', () => {
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

  it('refuses two modules that import each other type-only', () => {
    expect(run.status).not.toBe(0);
    expect(output).toMatch(/no-cycle: src\/http\/context\.ts →\s+src\/http\/reply\.ts →\s+src\/http\/context\.ts/);
  });

  it('accepts a type import that goes one way', () => {
    expect(output).not.toMatch(/src\/http\/writer\.ts/);
  });
});
