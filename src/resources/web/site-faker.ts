/**
 * The faker instance the generated sites draw from: faker's English definitions with a randomizer
 * that gives exactly the draws of faker's own (a Mersenne Twister, MT19937, 53-bit floats), seeded
 * in a fraction of the time. A site page is described and rendered after a seed of its own
 * (`seed('page', url)`, `seed('content', url)`), ~100 seeds a 100-page crawl at each read: faker's
 * seed built a fresh 624-element array of heap numbers each time (~40 µs), which was about half of
 * the CPU of planning and rendering a crawl. Here the state is one Int32Array, reused.
 *
 * Exactness: faker's twister stores some words as doubles outside the int32 range, but it only ever
 * reads them through bitwise operators (`^ & >>>`), which take them modulo 2^32; an Int32Array holds
 * the same words modulo 2^32, so every draw is the same number (test/resources/web/site-faker.test.ts
 * compares them with faker's own over many seeds; the site tests pin pages).
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { deriveSeed, seededFaker } from '../../random.js';

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

/** faker's MT19937 (`generateMersenne53Randomizer`), with its state in an Int32Array. */
export class ExactMersenne implements Randomizer {
  private readonly states = new Int32Array(N);
  private index = 0;

  constructor(seed: number | number[] = 0) {
    this.seed(seed);
  }

  // Own properties, not methods: faker calls them detached from the randomizer.
  readonly seed = (seed: number | number[]): void => {
    if (typeof seed === 'number') this.initialize(seed);
    else this.initializeByArray(seed);
    this.twist();
    this.index = 0;
  };

  /** A float in [0, 1) with 53 random bits, as faker's `nextF53`. */
  readonly next = (): number => {
    const high = this.nextU32() >>> 5;
    const low = this.nextU32() >>> 6;
    return (high * 67108864 + low) * 11102230246251565e-32;
  };

  private nextU32(): number {
    const states = this.states;
    let y = states[this.index]!;
    y ^= states[this.index]! >>> 11;
    y ^= (y << 7) & 2636928640;
    y ^= (y << 15) & 4022730752;
    y ^= y >>> 18;
    if (++this.index >= N) {
      this.twist();
      this.index = 0;
    }
    return y >>> 0;
  }

  private initialize(seed: number): void {
    const t = this.states;
    t[0] = seed;
    for (let i = 1; i < N; i++) {
      const n = t[i - 1]! ^ (t[i - 1]! >>> 30);
      t[i] = Math.imul(1812433253, n) + i;
    }
  }

  private initializeByArray(key: number[]): void {
    const t = this.states;
    this.initialize(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k !== 0; --k) {
      const n = t[i - 1]! ^ (t[i - 1]! >>> 30);
      t[i] = Math.trunc((t[i]! ^ Math.imul(n, 1664525)) + key[j]! + j);
      i++;
      j++;
      if (i >= N) {
        t[0] = t[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k !== 0; k--) {
      t[i] = (t[i]! ^ Math.imul(t[i - 1]! ^ (t[i - 1]! >>> 30), 1566083941)) - i;
      i++;
      if (i >= N) {
        t[0] = t[N - 1]!;
        i = 1;
      }
    }
    t[0] = UPPER;
  }

  private twist(): void {
    const e = this.states;
    for (let t = 0; t !== N - M; ++t) {
      const n = (e[t]! & UPPER) + (e[t + 1]! & LOWER);
      e[t] = e[t + M]! ^ (n >>> 1) ^ (-(n & 1) & MATRIX_A);
    }
    for (let t = N - M; t !== N - 1; ++t) {
      const n = (e[t]! & UPPER) + (e[t + 1]! & LOWER);
      e[t] = e[t + M - N]! ^ (n >>> 1) ^ (-(n & 1) & MATRIX_A);
    }
    const n = (e[N - 1]! & UPPER) + (e[0]! & LOWER);
    e[N - 1] = e[M - 1]! ^ (n >>> 1) ^ (-(n & 1) & MATRIX_A);
  }
}

let siteFaker: Faker | undefined;

/**
 * The sites' faker, seeded from `parts` as `seededFaker(...parts)` seeds the shared one (same draws).
 * Made from the shared instance's definitions the first time (loaded by src/random.ts); like it,
 * one instance reseeded before every use, used synchronously between a seed and its last draw.
 */
export function seededSiteFaker(...parts: Array<string | number>): Faker {
  siteFaker ??= sharedDefinitionsWith(new ExactMersenne());
  siteFaker.seed(deriveSeed(...parts));
  return siteFaker;
}

function sharedDefinitionsWith(randomizer: Randomizer): Faker {
  // The shared instance, for its class and English definitions (the bundle exports no other way to them).
  const shared = seededFaker(0);
  const FakerClass = shared.constructor as new (options: { locale: Faker['rawDefinitions']; randomizer: Randomizer }) => Faker;
  return new FakerClass({ locale: shared.rawDefinitions, randomizer });
}
