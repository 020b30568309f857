/** Hardening found in review: inputs that must be refused cleanly, never a 500 or a leak. */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';

describe('contract §1: --seed', () => {
  it('keeps the seed as typed: 007 and 7 seed different data', () => {
    expect(resolveOptions({ seed: '007' }).seed).not.toBe(resolveOptions({ seed: '7' }).seed);
  });
});
