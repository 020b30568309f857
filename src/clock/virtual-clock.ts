/**
 * The one time source of the sandbox. Everything time-based (job progress, rate-limit windows, key
 * expiry, idempotency memory, timestamps) reads `now()` here, so a test that freezes or advances
 * this clock sees every derived state move at once, without sleeping.
 */
export type ClockMode = 'running' | 'frozen';

export interface ClockSnapshot {
  now: string;
  mode: ClockMode;
}

export type RealTimeSource = () => number;

/**
 * The instants the sandbox can write and read back: four-digit years, the only ones every ISO 8601
 * parser reads (`new Date(ms).toISOString()` writes `+010000-01-01T…` past them, which the
 * sandbox's own date-time check, and most clients', refuse). The clock never leaves this range,
 * and a timestamp derived from it (a rate-limit window's reset, an event session's end, a job's
 * completion) is written clamped into it.
 */
export const MIN_INSTANT = '0000-01-01T00:00:00Z';
export const MAX_INSTANT = '9999-12-31T23:59:59Z';
export const MIN_INSTANT_MS = Date.parse(MIN_INSTANT);
export const MAX_INSTANT_MS = Date.parse(MAX_INSTANT);

export function isInClockRange(ms: number): boolean {
  return ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS;
}

/** `ms` moved into the range (a derived timestamp past its end is written as its last second). */
export function clampToClockRange(ms: number): number {
  return Math.min(MAX_INSTANT_MS, Math.max(MIN_INSTANT_MS, ms));
}

export class VirtualClock {
  // In running mode virtual time = anchorVirtual + (real() - anchorReal); frozen mode ignores real().
  private anchorVirtual: number;
  private anchorReal: number;
  private currentMode: ClockMode;

  constructor(
    start: number,
    mode: ClockMode,
    private readonly real: RealTimeSource = Date.now,
  ) {
    this.anchorVirtual = start;
    this.anchorReal = real();
    this.currentMode = mode;
  }

  /** Milliseconds since the Unix epoch, virtual. */
  now(): number {
    if (this.currentMode === 'frozen') return this.anchorVirtual;
    // A running clock set near the end of the range stops there rather than leave it.
    return Math.min(MAX_INSTANT_MS, this.anchorVirtual + (this.real() - this.anchorReal));
  }

  get mode(): ClockMode {
    return this.currentMode;
  }

  /** Switch mode and/or jump to an instant; time never passes during the switch itself. */
  set(change: { mode?: ClockMode; now?: number }): void {
    const at = change.now ?? this.now();
    if (!isInClockRange(at)) throw new RangeError(`the clock can only be set from ${MIN_INSTANT} to ${MAX_INSTANT}`);
    this.anchorVirtual = at;
    this.anchorReal = this.real();
    if (change.mode) this.currentMode = change.mode;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('seconds must be a finite number >= 0');
    this.set({ now: this.now() + seconds * 1000 });
  }

  snapshot(): ClockSnapshot {
    return { now: new Date(this.now()).toISOString(), mode: this.currentMode };
  }
}

/** Timestamps in API bodies: ISO 8601 UTC with second precision, e.g. `2026-01-01T00:00:00Z`. */
export function isoTimestamp(ms: number): string {
  const second = Math.floor(clampToClockRange(ms) / 1000);
  // A burst of requests formats the same few seconds (now, the window's reset) again and again.
  let formatted = formattedSeconds.get(second);
  if (formatted === undefined) {
    if (formattedSeconds.size >= 256) formattedSeconds.clear();
    formatted = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    formattedSeconds.set(second, formatted);
  }
  return formatted;
}

const formattedSeconds = new Map<number, string>();

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/**
 * An ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`), naming an instant that exists.
 * Without an offset `Date.parse` would read local time (machine-dependent bytes). `Date.parse` also
 * rolls an impossible day over (`2026-02-30` becomes March 2, `24:00` the next day), so every field
 * is checked against the calendar first: month 1–12, a day its month has (February 29 only in leap
 * years), hour 0–23, minute and second 0–59 (no leap second), offset hours 0–23. Every date-time the
 * sandbox accepts (request bodies, admin bodies, settings, fixtures, scenario params) goes through
 * this one parser.
 */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function parseInstant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_WITH_OFFSET.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return undefined;
  if (hour! > 23 || minute! > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

export function isInstant(value: string): boolean {
  return parseInstant(value) !== undefined;
}
