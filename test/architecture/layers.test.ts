import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';
import { layerDiagram } from '../../scripts/layers.mjs';

const CHECKER = path.join(PACKAGE_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(PACKAGE_ROOT, '.dependency-cruiser.mjs');
const projects: string[] = [];

/** A throwaway project laid out like ours (src/<unit>/…), checked with the project's own rules. */
function checkProject(files: Record<string, string>): { status: number | null; output: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'layers-'));
  projects.push(root);
  symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const run = spawnSync(process.execPath, [CHECKER, 'src', '--config', CONFIG], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterAll(() => {
  for (const root of projects) rmSync(root, { recursive: true, force: true });
});

const CASES: { rule: string; files: Record<string, string>; named: RegExp }[] = [
  {
    rule: 'a module importing a higher layer fails the check, and the failure names the import',
    files: {
      'src/store/records.ts': "import { thing } from '../http/reply.js';\nexport const record = thing;\n",
      'src/http/reply.ts': 'export const thing = 1;\n',
    },
    named: /layer-store:store\/: src\/store\/records\.ts → src\/http\/reply\.ts/,
  },
  {
    rule: 'a type-only import counts, and peers of one layer do not import each other',
    files: {
      'src/resources/status.ts': "import type { Rule } from '../scenarios/engine.js';\nexport type Status = Rule;\n",
      'src/scenarios/engine.ts': 'export type Rule = string;\n',
    },
    named: /layer-features:resources\/: src\/resources\/status\.ts → src\/scenarios\/engine\.ts/,
  },
  {
    rule: 'nothing below http/ imports Koa, not even its types',
    files: { 'src/protocol/prefer.ts': "import type { Context } from 'koa';\nexport type Preferring = Context;\n" },
    named: /no-koa-below-http: src\/protocol\/prefer\.ts → \S*node_modules\/koa\//,
  },
  {
    rule: 'a module outside every layer fails the check',
    files: {
      'src/misc/helper.ts': "import { thing } from '../http/reply.js';\nexport const helper = thing;\n",
      'src/http/reply.ts': 'export const thing = 1;\n',
    },
    named: /in-a-layer: src\/misc\/helper\.ts → src\/http\/reply\.ts/,
  },
];

/**
 * The four kinds of violation above live in one throwaway project, checked once: each run of the checker
 * costs ~2 s of CPU, and its report names every violation it finds, so one run proves each.
 */
const VIOLATIONS: Record<string, string> = Object.assign({}, ...CASES.map((c) => c.files)) as Record<string, string>;
let checked: { status: number | null; output: string } | undefined;
function violationsChecked(): { status: number | null; output: string } {
  checked ??= checkProject(VIOLATIONS);
  return checked;
}

describe('one direction of dependencies', () => {
  it('npm test runs the layer check before the suite', () => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['check:layers']).toBe('depcruise src --config .dependency-cruiser.mjs');
    expect(pkg.scripts.test).toMatch(/^npm run check:layers && /);
  });

  it.each(CASES)('$rule', ({ files, named }) => {
    const { status, output } = violationsChecked();
    // Each case's files are in the one project, unchanged: its violation must be among those named.
    expect(Object.entries(files).every(([file, text]) => VIOLATIONS[file] === text)).toBe(true);
    expect(status).not.toBe(0);
    expect(output).toMatch(named);
  });

  it('the architecture page draws the layers from the list the check reads', () => {
    const page = readFileSync(path.join(PACKAGE_ROOT, 'docs', 'architecture.md'), 'utf8');
    expect(page).toContain('```\n' + layerDiagram() + '\n```');
  });
});
