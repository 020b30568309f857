/**
 * A formatter and a type-checked linter run in CI. These tests pin the configuration
 * (which rules apply where, what the formatter skips), not the findings: `npm run lint` is the check.
 */
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string) => new URL(relative, ROOT).pathname;

// Rules that the `any` bodies of supertest make useless in tests; src/ and bench/ must keep them.
const ANY_BODY_RULES = [
  '@typescript-eslint/no-unsafe-member-access',
  '@typescript-eslint/no-unsafe-assignment',
  '@typescript-eslint/no-unsafe-argument',
  '@typescript-eslint/no-unsafe-call',
  '@typescript-eslint/no-unsafe-return',
  '@typescript-eslint/no-explicit-any',
];

function severity(entry: unknown): number | string {
  return Array.isArray(entry) ? (entry[0] as number | string) : (entry as number | string);
}

describe('the linter and the formatter', () => {
  const eslint = new ESLint({ cwd: path('.') });

  it('.ci/run runs the tests, the package replay, the type-check, then lint and the format check', () => {
    const commands = readFileSync(path('.ci/run'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('npm '));
    expect(commands.slice(-5)).toEqual(['npm test', 'npm run test:package', 'npm run typecheck', 'npm run lint', 'npm run format:check']);
  });

  it('src/ and bench/ get the type-checked rules, the any-body rules included', async () => {
    for (const file of ['src/app.ts', 'bench/run.ts', 'scripts/generate-fixture-validator.ts']) {
      const config = (await eslint.calculateConfigForFile(path(file))) as { rules: Record<string, unknown> };
      // A rule only the type-checked preset has: the files are linted with type information.
      expect(severity(config.rules['@typescript-eslint/no-floating-promises']), file).toBe(2);
      for (const rule of ANY_BODY_RULES) expect(severity(config.rules[rule]), `${file} ${rule}`).toBe(2);
    }
  });

  it('test/ relaxes only the any-body rules', async () => {
    const config = (await eslint.calculateConfigForFile(path('test/smoke.test.ts'))) as { rules: Record<string, unknown> };
    for (const rule of ANY_BODY_RULES) expect(severity(config.rules[rule]), rule).toBe(0);
    expect(severity(config.rules['@typescript-eslint/no-floating-promises'])).toBe(2);
    expect(severity(config.rules['@typescript-eslint/no-misused-promises'])).toBe(2);
  });

  it('prettier writes 140 columns with single quotes, and leaves generated files and markdown alone', async () => {
    expect(await prettier.resolveConfig(path('src/app.ts'))).toMatchObject({ printWidth: 140, singleQuote: true });
    const ignorePath = path('.prettierignore');
    for (const file of ['src/fixture/fixture-validator.generated.js', 'package-lock.json', 'README.md', 'BENCHMARKS.md']) {
      expect((await prettier.getFileInfo(path(file), { ignorePath })).ignored, file).toBe(true);
    }
    expect((await prettier.getFileInfo(path('src/app.ts'), { ignorePath })).ignored).toBe(false);
  });
});
