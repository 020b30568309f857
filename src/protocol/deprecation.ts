/**
 * Deprecation of spec §9. A deprecated operation answers, on every response it gives:
 * - `Deprecation: @<unix seconds>`: an RFC 9651 Date item (RFC 9745), serialized by structured-headers;
 * - `Sunset: <HTTP-date>` (RFC 8594, IMF-fixdate), at least six months after the deprecation by
 *   every reading: six calendar months, and 183 days;
 * - `Link: <url>; rel="deprecation"` pointing at migration notes.
 * Operations are marked by the fixture's `deprecations` and the `deprecations` option of createApp
 * (the world's registry), or by an active scenario: the registry asks the scenario engine whether one
 * deprecates every request, and the scenario middleware announces a deprecation for one request.
 * Nothing here knows HTTP: src/http/announce-deprecation.ts writes the headers on a response.
 * Every way in goes through `parseDeprecation`/`checkSunsetRule`, so a sunset too early is refused
 * wherever it comes from.
 */
import { serializeItem } from 'structured-headers';
import { parseInstant } from '../clock/virtual-clock.js';

export interface DeprecationInfo {
  operationId: string;
  /** Epoch ms, whole seconds: when the operation became (or will become) deprecated. */
  deprecatedAt: number;
  /** Epoch ms, whole seconds: after this the operation stops answering (the sandbox does not enforce it). */
  sunset: number;
  /** Migration notes: a URI reference, absolute or relative. */
  link: string;
}

/** The written form, as in a fixture file or the `deprecations` option: snake_case, ISO 8601 times. */
export interface DeprecationConfig {
  operation_id: string;
  deprecated_at: string;
  sunset: string;
  link: string;
}

export type DeprecationField = keyof DeprecationConfig;

export const DEPRECATION_FIELDS: readonly DeprecationField[] = ['operation_id', 'deprecated_at', 'sunset', 'link'];

/**
 * Spec §8/§9.3: "always at least six months" between deprecation and removal. Clients check that
 * in calendar months as often as in days (half a year, 182.5 days, rounded up; six calendar months
 * are 181 to 184 days), so the sandbox holds every sunset to both readings: it refuses what any reading would.
 */
export const MIN_SUNSET_MONTHS = 6;
export const MIN_SUNSET_DAYS = 183;

/** A rule a deprecation breaks, naming the field, so callers can name the file path or option. */
export class DeprecationRuleError extends Error {
  constructor(
    readonly field: DeprecationField | '',
    message: string,
  ) {
    super(message);
    this.name = 'DeprecationRuleError';
  }
}

// Inside `<…>` of a Link header: no spaces, quotes, angle brackets or control characters.
const URI_REFERENCE = /^[\x21\x23-\x3b\x3d\x3f-\x7e]{1,2048}$/;

/** The same instant six calendar months later (UTC); a day past the end of that month clamps to its last. */
export function sixCalendarMonthsAfter(deprecatedAt: number): number {
  const d = new Date(deprecatedAt);
  const months = d.getUTCMonth() + MIN_SUNSET_MONTHS;
  const year = d.getUTCFullYear() + Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** The earliest sunset every reading of "six months" accepts: six calendar months and 183 days, whichever is later. */
export function earliestSunset(deprecatedAt: number): number {
  return Math.max(sixCalendarMonthsAfter(deprecatedAt), deprecatedAt + MIN_SUNSET_DAYS * 86_400_000);
}

/** HTTP-date (RFC 9110 §5.6.7 IMF-fixdate), e.g. `Wed, 15 Jul 2026 12:00:00 GMT`. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

export function checkSunsetRule(info: Pick<DeprecationInfo, 'deprecatedAt' | 'sunset'>): void {
  const earliest = earliestSunset(info.deprecatedAt);
  if (info.sunset < earliest) {
    throw new DeprecationRuleError(
      'sunset',
      `must be at least ${MIN_SUNSET_MONTHS} calendar months and ${MIN_SUNSET_DAYS} days after deprecated_at (${new Date(info.deprecatedAt).toISOString()}): ` +
        `the earliest allowed is ${new Date(earliest).toISOString()}, got ${new Date(info.sunset).toISOString()}`,
    );
  }
}

function instant(raw: Record<string, unknown>, field: 'deprecated_at' | 'sunset'): number {
  const value = raw[field];
  const ms = parseInstant(value);
  if (ms === undefined) {
    throw new DeprecationRuleError(
      field,
      `must be an ISO 8601 date-time with a time zone (e.g. 2026-01-01T00:00:00Z), got ${JSON.stringify(value)}`,
    );
  }
  // The headers carry whole seconds; the rule is checked on what is sent.
  return Math.floor(ms / 1000) * 1000;
}

/** Checks a written deprecation (any JSON value) and returns it in the form the middleware uses. */
export function parseDeprecation(raw: unknown): DeprecationInfo {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new DeprecationRuleError('', 'must be an object');
  const record = raw as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !(DEPRECATION_FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new DeprecationRuleError('', `unknown field '${unknown}' (expected ${DEPRECATION_FIELDS.join(', ')})`);
  const missing = DEPRECATION_FIELDS.find((k) => record[k] === undefined);
  if (missing !== undefined) throw new DeprecationRuleError(missing, 'is required');
  if (typeof record.operation_id !== 'string' || record.operation_id === '') {
    throw new DeprecationRuleError('operation_id', 'must be a non-empty operation id, e.g. listApiKeys');
  }
  if (typeof record.link !== 'string' || !URI_REFERENCE.test(record.link)) {
    throw new DeprecationRuleError('link', 'must be a URI reference of at most 2048 characters without spaces, quotes or angle brackets');
  }
  const info: DeprecationInfo = {
    operationId: record.operation_id,
    deprecatedAt: instant(record, 'deprecated_at'),
    sunset: instant(record, 'sunset'),
    link: record.link,
  };
  checkSunsetRule(info);
  return info;
}

/** The three headers of spec §9 for one deprecation. */
export function deprecationHeaders(info: DeprecationInfo): Record<string, string> {
  return {
    // structured-headers serializes a JS Date as an RFC 9651 Date item: `@` + integer seconds.
    Deprecation: serializeItem([new Date(info.deprecatedAt), new Map()]),
    Sunset: httpDate(info.sunset),
    Link: `<${info.link}>; rel="deprecation"`,
  };
}

/**
 * The operations deprecated in one world, by operation id. Each world builds its own from the
 * fixture and the options (src/sandbox/world.ts), so reset restores it; tests may `set` and `delete`
 * entries, and the OpenAPI document asks `isDeprecated` to flag operations.
 */
export class DeprecationRegistry {
  private readonly byOperation = new Map<string, DeprecationInfo>();

  /**
   * `byScenario` says whether an active scenario deprecates every request of an operation (the
   * sandbox passes its scenario engine's answer); it only affects `isDeprecated`, since the
   * scenario middleware sets each request's headers itself.
   */
  constructor(
    entries: Iterable<DeprecationInfo> = [],
    private readonly byScenario: (operationId: string) => boolean = () => false,
  ) {
    for (const entry of entries) this.set(entry);
  }

  /** The configured deprecation (fixture, option or `set`) of an operation. */
  get(operationId: string): DeprecationInfo | undefined {
    return this.byOperation.get(operationId);
  }

  /**
   * Whether the operation is deprecated for every caller right now: configured, or by an active
   * `deprecated-operations`-style scenario not narrowed to one account or key. What the API
   * description (`/openapi.json`) flags as `deprecated`.
   */
  isDeprecated(operationId: string): boolean {
    return this.byOperation.has(operationId) || this.byScenario(operationId);
  }

  /** Marks (or re-marks) an operation deprecated; refuses a sunset earlier than `earliestSunset`. */
  set(info: DeprecationInfo): void {
    checkSunsetRule(info);
    this.byOperation.set(info.operationId, { ...info });
  }

  delete(operationId: string): boolean {
    return this.byOperation.delete(operationId);
  }
}
