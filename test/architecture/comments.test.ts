/**
 * Comments, test names and docs say what a rule is, never which tracker item asked for it: a reader
 * has the code, not the tracker. Section references to the specification ("spec §8") and to the
 * control-surface contract ("contract §4.3") are welcome; docs/README.md says what both documents are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';

const FOLDERS = ['src', 'test', 'docs', 'bench', 'scripts', 'examples', 'scenarios', '.ci'];
const ROOT_FILES = ['README.md', 'BENCHMARKS.md', 'vitest.config.ts', 'eslint.config.js', '.dependency-cruiser.mjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'screenshots']);
const TEXT = /\.(ts|js|mjs|cjs|md|json|py)$|^run$/;

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(PACKAGE_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : filesUnder(relative);
    return TEXT.test(entry.name) && !entry.name.includes('.generated.') ? [relative] : [];
  });
}

/** The word, a space or a hash, then a number: how a tracker item is cited. */
const TRACKER_TAG = new RegExp(['\\bissues?', ' #?\\d+'].join(''), 'i');

describe('comments and test names say the rule', () => {
  it('no file cites a tracker item by number', () => {
    const files = [...FOLDERS.flatMap(filesUnder), ...ROOT_FILES];
    expect(files.length).toBeGreaterThan(100);
    const tagged = files.flatMap((file) =>
      readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (TRACKER_TAG.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(tagged).toEqual([]);
  });
});
