/** The fixture validator is generated ahead of time; it must be exactly what the schema generates now. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureValidatorSource } from '../src/fixture/fixture-validator-source.js';

describe('generated fixture validator', () => {
  it('is up to date with FIXTURE_SCHEMA (run `npm run generate` after changing the schema)', () => {
    const committed = readFileSync(new URL('../src/fixture/fixture-validator.generated.js', import.meta.url), 'utf8');
    expect(committed).toBe(fixtureValidatorSource());
  });
});
