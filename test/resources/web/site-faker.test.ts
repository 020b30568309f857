/**
 * The sites' randomizer (src/resources/web/site-faker.ts) is faker's Mersenne Twister with a cheaper
 * seed: it must give exactly faker's draws, whatever the seed, or every generated site would change.
 */
import { generateMersenne53Randomizer } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveSeed, seededFaker } from '../../../src/random.js';
import { ExactMersenne, seededSiteFaker } from '../../../src/resources/web/site-faker.js';

/** `count` draws after seeding both with `seed`, past a twist of the state (624 words, 2 a draw). */
function draws(seed: number | number[], count = 700): [number[], number[]] {
  const faker = generateMersenne53Randomizer();
  const exact = new ExactMersenne();
  faker.seed(seed);
  exact.seed(seed);
  return [Array.from({ length: count }, () => faker.next()), Array.from({ length: count }, () => exact.next())];
}

describe("the sites' randomizer draws exactly what faker's does", () => {
  it.each([0, 1, 42, 19650218, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, -1, -(2 ** 31), 1.5, Number.NaN])(
    'after seed(%s)',
    (seed) => {
      const [faker, exact] = draws(seed);
      expect(exact).toEqual(faker);
    },
  );

  it('after any 32-bit seed, as the sites seed it (deriveSeed)', () => {
    fc.assert(
      fc.property(fc.string(), (part) => {
        const [faker, exact] = draws(deriveSeed('seed', 'page', part), 8);
        expect(exact).toEqual(faker);
      }),
      { numRuns: 300 },
    );
  });

  it.each([[[1]], [[0x123, 0x234, 0x345, 0x456]], [Array.from({ length: 700 }, (_, i) => i * 7919)], [[2 ** 33, -5, 1.25]]])(
    'after seed(an array of %#)',
    (seed) => {
      const [faker, exact] = draws(seed);
      expect(exact).toEqual(faker);
    },
  );

  it("and the sites' faker makes what the shared faker makes from the same seed parts", () => {
    for (const url of ['https://example.com/', 'https://example.com/blog/a-post', 'https://x.test/%E0']) {
      const site = seededSiteFaker('sandbox-seed', 'content', url);
      const mine = [site.company.catchPhrase(), site.commerce.productDescription(), site.number.int({ min: 1, max: 16 })];
      const shared = seededFaker('sandbox-seed', 'content', url);
      expect(mine).toEqual([shared.company.catchPhrase(), shared.commerce.productDescription(), shared.number.int({ min: 1, max: 16 })]);
    }
  });
});
