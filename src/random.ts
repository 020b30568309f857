import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

/**
 * Seeded randomness. Ids, tokens and generated data all come from streams derived from the one
 * `seed` option, so the same seed and the same requests produce the same bytes.
 */

/** sfc32: small, fast and good enough for ids; state fits four uint32s. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    const h = hash128(String(seed));
    [this.a, this.b, this.c, this.d] = h;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  /** Where the stream is now: `rewind(state)` makes it draw again from here. */
  state(): readonly [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  rewind(state: readonly [number, number, number, number]): void {
    [this.a, this.b, this.c, this.d] = state;
  }
}

/** cyrb128: turns any string into four well-mixed 32-bit words. */
export function hash128(str: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A 32-bit seed derived from several parts, for seeding faker per account. */
export function deriveSeed(...parts: Array<string | number>): number {
  return hash128(parts.join('\u0000'))[0];
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomString(prng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[prng.nextUint32() % 62];
  return out;
}

/** Where ids and secrets are drawn from: one stream (IdGenerator), or one per kind (src/sandbox/record-ids.ts). */
export interface IdSource {
  next(prefix: string): string;
  secret(prefix: string): string;
}

/** Characters drawn after an id's prefix. */
const ID_LENGTH = 24;

/**
 * An id as long as the ones `IdGenerator.next(prefix)` draws (`<prefix>_` and 24 characters): a
 * draft of a record (or endpoint) weighs what it will once its id is drawn, so a budget is checked
 * before any id is drawn and a refused call leaves the stream as it was.
 */
export function draftId(prefix: string): string {
  return `${prefix}_${'0'.repeat(ID_LENGTH)}`;
}

/** Prefixed ids (`prod_…`, `cus_…`), the shape the spec requires of resource identifiers. */
export class IdGenerator implements IdSource {
  private readonly prng: Prng;
  /**
   * Ids and secrets this stream must never make: those of accounts loaded from a snapshot (contract
   * §5.3), drawn by the same seeded stream in the process that took it. A draw equal to one is
   * skipped, which keeps the stream deterministic (same seed + same requests = same bytes).
   */
  private reserved: Set<string> | undefined;

  /**
   * `taken`, when given, names values in use elsewhere that a draw must skip too: a stream of one
   * tenant among several (src/webhooks/id-streams.ts) skips what the others hold, so ids stay unique
   * across the world. Skipping is deterministic as long as what `taken` says is.
   */
  constructor(
    seed: number | string,
    private readonly taken?: (value: string) => boolean,
  ) {
    this.prng = new Prng(`ids:${seed}`);
  }

  next(prefix: string): string {
    let id: string;
    do id = `${prefix}_${randomString(this.prng, ID_LENGTH)}`;
    while (this.skips(id));
    return id;
  }

  secret(prefix: string): string {
    let secret: string;
    do secret = `${prefix}${randomString(this.prng, 32)}`;
    while (this.skips(secret));
    return secret;
  }

  private skips(value: string): boolean {
    return this.reserved?.has(value) === true || this.taken?.(value) === true;
  }

  /**
   * Draws `prefix`'s next id for a creation that may still be refused: `undo()` puts the stream back
   * where it was, so a refused creation leaves no trace and the next draw is the one it would have
   * been without it (same seed + same requests = same bytes).
   */
  tentative(prefix: string): { id: string; undo: () => void } {
    const before = this.prng.state();
    return { id: this.next(prefix), undo: () => this.prng.rewind(before) };
  }

  /** Never makes these (ids or secrets) from now on. */
  reserve(values: Iterable<string>): void {
    this.reserved ??= new Set();
    for (const value of values) this.reserved.add(value);
  }
}

/**
 * What remembering one deleted account id costs beyond its characters (one byte each: account ids
 * are ASCII): the Map entry, the string's header and the Map's table, whose deleted slots linger
 * until it rehashes. Measured with `node --expose-gc` on Node 20 (heapUsed after gc; ids parsed from
 * JSON, as a request body's are, of 6 to 69 characters): 45 to 79 bytes besides the characters when
 * ids are only added, 81 to 114 once the budget is full and every deletion forgets the oldest (the
 * steady state of a long run); 128 covers every case measured, so the heap the ids take stays under
 * the budget (16 MiB counted: 11.1 to 14.9 MB of heap).
 */
export const REMEMBERED_ID_OVERHEAD = 128;

/** Default of `deletedIdsBudget`: about 85,000 deleted ids of the longest kind (69 characters), 105,000 of 29. */
export const DEFAULT_DELETED_IDS_BUDGET = 16 * 1024 ** 2;

/** What one remembered id weighs against `deletedIdsBudget`. */
export function rememberedIdBytes(id: string): number {
  return REMEMBERED_ID_OVERHEAD + id.length;
}

/**
 * How many earlier lives each deleted account id has had: an account deleted, then made again with
 * its id (`POST /__admin/accounts {"id"}`, a snapshot reloaded, contract §5.3), starts streams
 * seeded apart from its earlier lives', so no id those lives gave (an event id a receiver
 * de-duplicates on, a token) comes again. Counted per id, from the tenant's own deletions, never
 * sandbox-wide: within the budget, another tenant's deletions never move this one's ids. One count
 * for every family of streams (the record streams, src/sandbox/record-ids.ts, and the webhook
 * streams, src/webhooks/id-streams.ts): each says which life its streams were made in, so a deletion
 * counts once however many families drew.
 *
 * Past the budget (`deletedIdsBudget`, bytes: `rememberedIdBytes` each) the id whose life ended
 * longest ago, sandbox-wide, is forgotten first. An id forgotten and made again is a first life
 * again: it draws its first life's ids and tokens, so its earlier lives' tokens authenticate again
 * (the one exception to contract §4.1's "a deleted account's keys answer 401"), and which ids are
 * forgotten depends on every tenant's deletions (the one exception to per-tenant determinism). No
 * design keeps both properties in bounded memory: once forgotten, an id cannot be told from one never
 * seen, so a new life could only be told apart by something sandbox-wide (a count of all deletions,
 * a hashed counter shared by colliding ids), which would let other tenants move every re-created
 * tenant's ids, inside the budget too. The budget is sized so a CI day stays within it; an id
 * deleted again moves to the newest, so one re-created in a loop is never forgotten; unique ids per
 * test run avoid the question (docs/parallel-tenants.md "Ids").
 */
export class Incarnations {
  /** In the order lives ended (a Map keeps insertion order): the first key is the one to forget. */
  private readonly counts = new Map<string, number>();
  private weight = 0;

  constructor(private readonly budget: number = DEFAULT_DELETED_IDS_BUDGET) {}

  /** Lives `id` has had before this one (0 for its first, or once forgotten). */
  of(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /**
   * A life of `id` in which a family drew ids ended; `life` is the one its streams were made in.
   * Its next life is `life + 1` at least: two families ending the same life count it once.
   */
  ended(id: string, life: number): void {
    const known = this.counts.get(id);
    if (known === undefined) this.weight += rememberedIdBytes(id);
    // Moved to the end: an id re-created in a loop is the last one forgotten.
    else this.counts.delete(id);
    this.counts.set(id, Math.max(known ?? 0, life + 1));
    for (const oldest of this.counts.keys()) {
      if (this.weight <= this.budget) break;
      this.counts.delete(oldest);
      this.weight -= rememberedIdBytes(oldest);
    }
  }

  /** Ids remembered (tests and diagnostics). */
  get size(): number {
    return this.counts.size;
  }

  /** What the remembered ids weigh against the budget (tests and diagnostics). */
  get bytes(): number {
    return this.weight;
  }
}

/** A stream seed for the given life of its owner: a first life keeps the seed as it was (ids drawn before lives were counted stay). */
export function incarnationSeed(seed: string, incarnation: number): string {
  return incarnation === 0 ? seed : `${seed}\u0000life:${incarnation}`;
}

/** Request ids come from a counter: deterministic, ordered and cheap. */
export class RequestIdGenerator {
  private counter = 0;
  next(): string {
    this.counter += 1;
    return `req_${this.counter.toString().padStart(12, '0')}`;
  }
}

/**
 * Loads faker the first time fake data is made, not when the module loads. Only the English locale
 * (the package's main entry loads every locale). Seeded records are derived lazily (src/store/store.ts),
 * so a run that never reads them (start-up, authentication, job polls) never parses faker's ~430 KB:
 * it was the largest part of the CLI bundle and of the library's first import. Loaded with `require`
 * (Node >= 20.19 requires ES modules synchronously; `engines` says so) because seeding is synchronous;
 * a name other than `require` keeps the bundler from inlining it (scripts/build-dist.mjs).
 */
const loadModule = createRequire(import.meta.url);
const ENGLISH_FAKER = '@faker-js/faker/locale/en';
let englishFaker: Faker | undefined;

/**
 * Loads faker ahead of its first use: start-up's background work calls it after listen
 * (src/warm-up.ts), so the first request that derives an account's records does not load it
 * (~25-40 ms in one turn) with every other tenant's request behind it. Synchronous, like the first
 * use: an `import()` in flight makes a `require` of the same module by a request meanwhile throw,
 * so the module cannot be read in turns of its own while requests may derive records.
 */
export function loadFaker(): void {
  englishFakerLoaded();
}

function englishFakerLoaded(): Faker {
  return (englishFaker ??= (loadModule(ENGLISH_FAKER) as { faker: Faker }).faker);
}

/** Whether faker is loaded (tests of start-up's background work). */
export function fakerLoaded(): boolean {
  return englishFaker !== undefined;
}

/**
 * A Faker of its own, seeded: for work that is done in steps, with other work running between them
 * (an account's seeded records, derived in slices before the operation: src/store/store.ts). The
 * shared instance is reseeded by whoever draws next, so steps drawing from it would shift each
 * other's data; this one is drawn from by its owner only. Same locale data, so the same seed draws
 * what the shared instance draws (~0.3 ms to make: it shares the loaded definitions).
 */
export function ownSeededFaker(...seedParts: Array<string | number>): Faker {
  const shared = englishFakerLoaded();
  const FakerOfLocale = shared.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  const faker = new FakerOfLocale({ locale: shared.rawDefinitions });
  faker.seed(deriveSeed(...seedParts));
  return faker;
}

/**
 * Seeded fake data. The instance is shared: seed it and use it synchronously, in one go, which is
 * how every generator here runs (no await between seeding and the last draw).
 */
export function seededFaker(...seedParts: Array<string | number>): Faker {
  const faker = englishFakerLoaded();
  faker.seed(deriveSeed(...seedParts));
  return faker;
}
