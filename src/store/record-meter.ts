/**
 * The record budget of an account (docs/api.md "Record budget"): what the records it holds
 * weigh, counted as each is written, never by walking the account.
 *
 * A record weighs the UTF-8 bytes of its JSON (internal members included), measured when it is
 * inserted, replaced or changed through `Collection.update`. The account's seeded records count from
 * its birth: weighed once, from a scratch derivation, the first time the count is needed (a tenant
 * that never writes never pays for it), so writing a seeded collection for the first time changes
 * nothing and deleting a seeded record lowers the count. Two bounds, both refused before anything changes (422, `validation_error`, the
 * request member in `param` and `errors`; spec §7.1 has `errors` on every 422):
 * - one record weighs at most RECORD_LIMIT_BYTES (`record_too_large`): the 1 MiB a request body may
 *   carry (src/protocol/body-limit.ts), so what an answer or a webhook event of one record weighs is
 *   bounded whatever merges built it;
 * - an account's records weigh at most its budget (`record_budget_exceeded`, `--record-budget`).
 */
import { ApiError, emptyFieldErrors } from '../errors/api-error.js';
import { jsonBytes } from './json-bytes.js';

/** What one record may weigh: the request body limit's 1 MiB (src/protocol/body-limit.ts; a test keeps them equal). */
export const RECORD_LIMIT_BYTES = 1024 * 1024;

/** Default of `recordBudget`: what one account's records may weigh. */
export const DEFAULT_RECORD_BUDGET = 32 * 1024 * 1024;

/** The UTF-8 bytes of a record's JSON: what the budget counts (measured without writing the JSON). */
export function recordBytes(record: unknown): number {
  return jsonBytes(record);
}

/**
 * The one envelope of a record-bound refusal: 422, `param` naming the request member the records
 * came from and `errors` holding `detail` under it (spec §7.1); `message` is `detail` unless given.
 */
export function recordRefusal(
  code: 'record_too_large' | 'record_budget_exceeded',
  param: string,
  detail: string,
  message: string = detail,
): ApiError {
  const errors = emptyFieldErrors();
  errors[param] = [detail];
  return new ApiError(code, { param, errors, message });
}

/** The byte count of one account's records, against its budget. */
export class RecordMeter {
  /** What the writes since birth added or gave back; the seeded records come on top. */
  private used = 0;
  private seeded: number | undefined;

  /** `weighSeeded`: what the account's seeded records weigh, asked at most once (`seeded` when already known). */
  constructor(
    readonly budget: number,
    private readonly weighSeeded: () => number = () => 0,
    seeded?: number,
  ) {
    this.seeded = seeded;
  }

  /** Whether the seeded records are weighed yet (reading `bytes` weighs them). */
  get weighed(): boolean {
    return this.seeded !== undefined;
  }

  /** The seeded records weigh `bytes`, weighed by whoever derived them (in slices): asked no more. */
  weighedAs(bytes: number): void {
    this.seeded ??= bytes;
  }

  get bytes(): number {
    this.seeded ??= this.weighSeeded();
    return this.used + this.seeded;
  }

  /**
   * Throws unless records weighing `sizes` can be added while `freed` bytes go: each at most
   * RECORD_LIMIT_BYTES, the account then within its budget. Changes nothing.
   */
  check(sizes: readonly number[], param: string, freed = 0): void {
    let added = 0;
    for (const size of sizes) {
      if (size > RECORD_LIMIT_BYTES) {
        throw recordRefusal(
          'record_too_large',
          param,
          `would make a record of ${size} bytes; a record is at most ${RECORD_LIMIT_BYTES} bytes of JSON`,
        );
      }
      added += size;
    }
    const after = this.bytes - freed + added;
    if (added > freed && after > this.budget) {
      throw recordRefusal(
        'record_budget_exceeded',
        param,
        `would bring the account's records to ${after} bytes; its record budget is ${this.budget} bytes (--record-budget)`,
      );
    }
  }

  /** Counts a change already checked (or one that never grows the account: a delete, a fixed-size update). */
  add(delta: number): void {
    this.used += delta;
  }
}

/**
 * An account whose seeded records (its pinned records, or a template the creator chose) would weigh
 * more than the record budget: refused at its creation, before it exists. `pointer` is the JSON
 * pointer, inside the pinned records, of the first one at which they alone pass the budget; none
 * when the template's own records make up the rest.
 */
export class SeededRecordsOverBudget extends Error {
  constructor(
    readonly bytes: number,
    readonly budget: number,
    readonly pointer: string | undefined,
    /** What weighs `bytes`: its seeded records, its first API key, or both. */
    what = 'its seeded records',
  ) {
    super(`${what} would weigh ${bytes} bytes; an account's record budget is ${budget} bytes (--record-budget)`);
    this.name = 'SeededRecordsOverBudget';
  }
}

/** The pointer (`/inboxes/3`) of the first pinned record at which the pinned records alone weigh more than `budget`. */
export function pinnedPastBudget(pinned: object | undefined, budget: number): string | undefined {
  let bytes = 0;
  for (const [collection, entries] of Object.entries(pinned ?? {}) as [string, unknown[]][]) {
    for (const [i, entry] of entries.entries()) {
      bytes += recordBytes(entry);
      if (bytes > budget) return `/${collection}/${i}`;
    }
  }
  return undefined;
}
