/**
 * Tests never depend on the machine's load. vi.waitFor gives up after 1 s unless told otherwise, a
 * real-time budget a busy 2-core machine misses; tests wait through `eventually` (test/support), whose
 * limit only catches hangs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';

const ALLOWED = new Set([path.join('test', 'support', 'eventually.ts')]);

function testFiles(folder: string): string[] {
  return readdirSync(path.join(PACKAGE_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(relative);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

describe('tests wait without a real-time budget', () => {
  it('no test calls vi.waitFor with its 1-second default; they use eventually()', () => {
    const files = [...testFiles('test'), ...testFiles('examples')];
    expect(files.length).toBeGreaterThan(100);
    const offending = files
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) =>
        readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, index) => (/\bvi\.waitFor\(/.test(line) ? [`${file}:${index + 1}`] : [])),
      );
    expect(offending).toEqual([]);
  });
});
