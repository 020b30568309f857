/**
 * Settings of contract §1: one table of flag = environment variable = option. Every value is checked
 * here, once; a bad value throws ConfigError naming the setting, and nothing starts half-configured.
 *
 * Over 350 lines on purpose: the options' documented types, their defaults and their parsers are
 * one table read together when a setting is added; the flag table (settings.ts) and the byte-size
 * grammar (byte-size.ts) are apart already.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { isInClockRange, MAX_INSTANT, MIN_INSTANT, parseInstant } from '../clock/virtual-clock.js';
import type { RateLimitQuotas } from '../protocol/rate-limiter.js';
import { formatByteSize, parseByteSize } from './byte-size.js';
import { DEFAULT_JOURNAL_BODY_LIMIT, DEFAULT_JOURNAL_BUDGET, MAX_JOURNAL_BODY_LIMIT } from '../protocol/request-journal.js';
import { DEFAULT_IDEMPOTENCY_BUDGET, DEFAULT_IDEMPOTENCY_TOTAL_BUDGET } from '../protocol/idempotency-store.js';
import { ConfigError } from '../errors/config-error.js';
import { DEFAULT_RECORD_BUDGET } from '../store/record-meter.js';
import { DEFAULT_DELETED_IDS_BUDGET } from '../random.js';
import { DeprecationRuleError, parseDeprecation, type DeprecationConfig, type DeprecationInfo } from '../protocol/deprecation.js';

// `string & {}` keeps the two names in editors' completions: a bare `string` would absorb them.
export type ClockSetting = 'running' | 'frozen' | (string & {});

export type { RateLimitQuotas } from '../protocol/rate-limiter.js';

/** Options of `createApp` and `startMockServer`. All optional. */
export interface MockOptions {
  port?: number;
  host?: string;
  /** A fixture name under `fixtures/`, or a path to a fixture file. */
  fixtures?: string;
  /**
   * Scenarios active from boot (contract §3.5): a name, optionally followed by `;key=value` pairs
   * giving params and scope, e.g. `rate-limited;retry_after=5;operation_id=listApiKeys`.
   */
  scenarios?: string[];
  /** A directory of your own scenario files, loaded beside the shipped ones in `scenarios/`. */
  scenariosDir?: string;
  /** How many /v1 requests the journal keeps (the newest); 0 turns the journal off. */
  journalSize?: number;
  /** UTF-8 bytes kept of each request and answer body in the journal (`64KiB`, or a number); beyond, a marked head. */
  journalBodyLimit?: number | string;
  /** What the whole journal may weigh (`64MiB`, or a number of bytes); the oldest entries are dropped first. */
  journalBudget?: number | string;
  /** What one account's remembered `Idempotency-Key` answers may weigh (`8MiB`, or bytes); the oldest go first. */
  idempotencyBudget?: number | string;
  /** What every account's together may weigh (`64MiB`, or bytes); the heaviest account's oldest answers go first. */
  idempotencyTotalBudget?: number | string;
  seed?: number | string;
  /** `running`, `frozen` (at boot time) or an ISO time to freeze at. */
  clock?: ClockSetting;
  adminToken?: string;
  /**
   * Host names (optionally `name:port`) the admin API answers besides loopback names and the bound
   * address (contract §3): the name a CI service or a proxy reaches the sandbox by.
   */
  allowedHosts?: string[];
  /**
   * On close (SIGTERM, SIGINT, `mock.close()`), how long requests already received may take to be
   * answered, in milliseconds; those still running then are cut. Default 1500.
   */
  shutdownGrace?: number;
  /**
   * Real milliseconds a webhook attempt may take before it counts as failed (contract §4.3: 10 s).
   * Tests of a receiver that never answers shorten it.
   */
  webhookTimeout?: number;
  /**
   * Webhook attempts in flight at once, sandbox-wide, shared round-robin between accounts
   * (docs/webhooks.md "Isolation"); waiting for a slot does not count toward `webhookTimeout`. Default 256.
   */
  webhookConcurrency?: number;
  /**
   * Bytes of the bodies of the webhook attempts in flight at once, sandbox-wide (docs/webhooks.md
   * "Isolation"): bytes or `64MiB`. An attempt whose body does not fit waits for a slot; a body over
   * it goes alone. Default 64 MiB.
   */
  webhookInflightBudget?: number | string;
  /**
   * Bytes of the deleted account ids the sandbox remembers, so an account made again with one draws
   * ids and tokens its earlier lives never had (docs/parallel-tenants.md "Ids"): bytes or `16MiB`.
   * Each id weighs 128 bytes and its characters; past the budget the id deleted longest ago is
   * forgotten, and made again draws its first life's ids and tokens again. Default 16 MiB.
   */
  deletedIdsBudget?: number | string;
  /**
   * Bytes of webhook deliveries kept per account (README "Testing your webhook receiver"): bytes or
   * `16MiB`. Over it the oldest go first; a pending one that goes is never sent. Default 16 MiB.
   */
  deliveryLogBudget?: number | string;
  /** Bytes of webhook deliveries kept in the whole sandbox, every account together. Default 256 MiB. */
  deliveryLogSandboxBudget?: number | string;
  /** Bytes of a webhook receiver's answer read (never inflated); the rest is not read. Default 64 KiB. */
  webhookResponseLimit?: number | string;
  /**
   * Bytes of findings (contract §5.1, docs/findings.md) kept per account, besides the 1,000 count:
   * bytes or `1MiB`. `0` turns findings off. Default 1 MiB.
   */
  findingsBudget?: number | string;
  /**
   * Rules of findings turned off (or on) for every account (docs/findings.md "Silencing a rule"):
   * `retry-after-ignored=off,rate-limit-exhausted=off`, or `{ 'retry-after-ignored': 'off' }`. An
   * account's own settings win. Default: every rule on.
   */
  findingsRules?: string | Readonly<Record<string, 'on' | 'off'>>;
  /**
   * Bytes of records one account may hold (docs/api.md "Record budget"): bytes or `32MiB`. A write
   * that would pass it is refused (422 `record_budget_exceeded`) and changes nothing. Default 32 MiB.
   */
  recordBudget?: number | string;
  /** `spec`, `off` or `free=N,paid=M`. */
  rateLimit?: string;
  /** One line per request on stderr. */
  log?: boolean;
  /**
   * A file the sandbox writes on close (SIGTERM, SIGINT, `mock.close()`): every finding and the
   * coverage of every account, as JSON (contract §5.2, docs/coverage.md). Its folder is made if missing.
   */
  report?: string;
  /**
   * Operations deprecated from boot (spec §9), added to (and overriding) the fixture's
   * `deprecations`. A sunset less than six months after `deprecated_at` is refused.
   */
  deprecations?: DeprecationConfig[];
}

export interface ResolvedOptions {
  port: number;
  host: string;
  fixtures: string;
  scenarios: string[];
  /** Absolute path of the user's scenario directory, if any. */
  scenariosDir: string | undefined;
  journalSize: number;
  journalBodyLimit: number;
  journalBudget: number;
  idempotencyBudget: number;
  idempotencyTotalBudget: number;
  seed: string;
  clock: { mode: 'running' | 'frozen'; start: number | undefined };
  adminToken: string | undefined;
  /** Lower-cased `name` or `name:port` entries. */
  allowedHosts: string[];
  shutdownGraceMs: number;
  webhookTimeoutMs: number;
  webhookConcurrency: number;
  webhookInflightBudget: number;
  deletedIdsBudget: number;
  deliveryLogBudget: number;
  deliveryLogSandboxBudget: number;
  webhookResponseLimit: number;
  findingsBudget: number;
  /** Rule name -> setting, null-prototype; the findings module refuses a name that is no rule. */
  findingsRules: Readonly<Record<string, 'on' | 'off'>>;
  recordBudget: number;
  rateLimit: RateLimitQuotas;
  rateLimitSetting: string;
  log: boolean;
  /** Absolute path of the report file, if any. */
  report: string | undefined;
  deprecations: DeprecationInfo[];
}

/** Default and bounds of `journalSize` (README "Request journal"). */
export const DEFAULT_JOURNAL_SIZE = 1000;
export const MAX_JOURNAL_SIZE = 1_000_000;

/** Default and bound of `shutdownGrace` (README "Settings"): the default keeps exit within contract §1's 2 s. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 1500;
export const MAX_SHUTDOWN_GRACE_MS = 600_000;

/** Default and bound of `webhookTimeout` (contract §4.3). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_WEBHOOK_TIMEOUT_MS = 600_000;

/**
 * An integer within `[min, max]`, as a number or as its digits (flags and environment variables are
 * text), refused naming the setting: every integer setting reads through here.
 */
function parseIntegerSetting(
  value: unknown,
  setting: string,
  min: number,
  max: number,
  expected = `an integer from ${min} to ${max}`,
): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(setting, `expected ${expected}, got ${JSON.stringify(value)}`);
  }
  return n;
}

export function parseWebhookTimeout(value: unknown, setting = 'webhook-timeout'): number {
  return parseIntegerSetting(value, setting, 1, MAX_WEBHOOK_TIMEOUT_MS, `an integer from 1 to ${MAX_WEBHOOK_TIMEOUT_MS} (milliseconds)`);
}

/**
 * Default and bound of `webhookConcurrency`. The bound is the hub's connection pool size
 * (src/webhooks/transport.ts, 512 sockets): above it, attempts would wait inside the pool with their
 * deadline running.
 */
export const DEFAULT_WEBHOOK_CONCURRENCY = 256;
export const MAX_WEBHOOK_CONCURRENCY = 512;

export function parseWebhookConcurrency(value: unknown, setting = 'webhook-concurrency'): number {
  return parseIntegerSetting(value, setting, 1, MAX_WEBHOOK_CONCURRENCY);
}

/** Defaults of the webhook budgets (README "Testing your webhook receiver"). */
export const DEFAULT_DELIVERY_LOG_BUDGET = 16 * 1024 ** 2;
/** Default of `findingsBudget`: bytes of findings kept per account (docs/findings.md). */
export const DEFAULT_FINDINGS_BUDGET = 1024 ** 2;
export const DEFAULT_DELIVERY_LOG_SANDBOX_BUDGET = 256 * 1024 ** 2;
export const DEFAULT_WEBHOOK_RESPONSE_LIMIT = 64 * 1024;
/** Default of `webhookInflightBudget`: 64 bodies of a megabyte in flight, a fraction of the 512 MiB a flood must stay under. */
export const DEFAULT_WEBHOOK_INFLIGHT_BUDGET = 64 * 1024 ** 2;

export const SPEC_RATE_LIMIT: RateLimitQuotas = { enforce: true, free: 600, paid: 3000, windowSeconds: 60 };

export function parsePort(value: unknown, setting = 'port'): number {
  return parseIntegerSetting(value, setting, 0, 65535);
}

export function parseClock(value: unknown, setting = 'clock'): ResolvedOptions['clock'] {
  if (value === 'running' || value === 'frozen') return { mode: value, start: undefined };
  const start = parseInstant(value);
  if (start !== undefined && !isInClockRange(start)) {
    throw new ConfigError(setting, `expected an instant from ${MIN_INSTANT} to ${MAX_INSTANT}, got ${JSON.stringify(value)}`);
  }
  if (start !== undefined) return { mode: 'frozen', start };
  throw new ConfigError(
    setting,
    `expected running, frozen or an ISO 8601 time with a time zone (e.g. 2026-01-01T00:00:00Z), got ${JSON.stringify(value)}`,
  );
}

export function parseRateLimit(value: unknown, setting = 'rate-limit'): RateLimitQuotas {
  if (value === 'spec') return { ...SPEC_RATE_LIMIT };
  if (value === 'off') return { ...SPEC_RATE_LIMIT, enforce: false };
  const refuse = (detail: string) =>
    new ConfigError(
      setting,
      `expected spec, off or free=N,paid=M (either part may be left out) with N, M from 1 to ${Number.MAX_SAFE_INTEGER}; ${detail}`,
    );
  if (typeof value !== 'string' || value.length === 0) throw refuse(`got ${JSON.stringify(value)}`);
  const quotas = { ...SPEC_RATE_LIMIT };
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const match = /^(free|paid)=(\d+)$/.exec(part.trim());
    if (!match) throw refuse(`got ${JSON.stringify(value)}`);
    const [, tier, digits] = match as unknown as [string, 'free' | 'paid', string];
    const quota = Number(digits);
    if (quota < 1 || !Number.isSafeInteger(quota)) throw refuse(`${tier}=${digits} is out of range`);
    if (seen.has(tier)) throw refuse(`${tier} is given twice`);
    seen.add(tier);
    quotas[tier] = quota;
  }
  return quotas;
}

/**
 * `rule=off,rule=on` (or an object of them) into a null-prototype map. Only the form is checked
 * here: which names are rules is the findings module's to say, at start-up (a ConfigError too).
 */
export function parseFindingsRules(value: unknown, setting = 'findings-rules'): Record<string, 'on' | 'off'> {
  const refuse = (detail: string) => new ConfigError(setting, `expected rule=off or rule=on, comma-separated; ${detail}`);
  let entries: Array<[string, unknown]>;
  if (typeof value === 'string') {
    entries = value
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const at = part.indexOf('=');
        return at < 0 ? [part.trim(), undefined] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
      });
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    entries = Object.entries(value);
  } else {
    throw refuse(`got ${JSON.stringify(value)}`);
  }
  const rules = Object.create(null) as Record<string, 'on' | 'off'>;
  for (const [name, setting_] of entries) {
    if (!/^[a-z][a-z-]*$/.test(name)) throw refuse(`${JSON.stringify(name)} is not a rule name`);
    if (setting_ !== 'on' && setting_ !== 'off') throw refuse(`${name} is ${JSON.stringify(setting_ ?? null)}`);
    if (name in rules) throw refuse(`${name} is given twice`);
    rules[name] = setting_;
  }
  return rules;
}

export function parseJournalSize(value: unknown, setting = 'journal-size'): number {
  return parseIntegerSetting(value, setting, 0, MAX_JOURNAL_SIZE, `an integer from 0 (journal off) to ${MAX_JOURNAL_SIZE}`);
}

/** A byte size within `[min, max]` (README "Settings"), refused naming the setting. */
function parseBytesSetting(value: unknown, setting: string, min: number, max: number): number {
  const bytes = parseByteSize(value);
  if (bytes === undefined || bytes < min || bytes > max) {
    throw new ConfigError(
      setting,
      `expected a byte size from ${formatByteSize(min)} to ${formatByteSize(max)} (a number of bytes, or e.g. 64KiB, 16MiB), got ${JSON.stringify(value)}`,
    );
  }
  return bytes;
}

export function parseJournalBodyLimit(value: unknown, setting = 'journal-body-limit'): number {
  return parseBytesSetting(value, setting, 0, MAX_JOURNAL_BODY_LIMIT);
}

/** Up to 16 GiB: a budget is a bound, and a larger one is no bound on a real machine. */
export const MAX_BYTE_BUDGET = 16 * 1024 ** 3;

/** Every byte budget and limit but the journal body's (README "Settings"): 0 to 16 GiB. */
export function parseByteBudget(value: unknown, setting: string): number {
  return parseBytesSetting(value, setting, 0, MAX_BYTE_BUDGET);
}

export function parseShutdownGrace(value: unknown, setting = 'shutdown-grace'): number {
  return parseIntegerSetting(value, setting, 0, MAX_SHUTDOWN_GRACE_MS, `milliseconds, an integer from 0 to ${MAX_SHUTDOWN_GRACE_MS}`);
}

/** A host name, an IPv4 address or a bracketed IPv6 address, with an optional port: what a Host header holds. */
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::\d{1,5})?$/i;

/** `allowedHosts`: a list, or a comma list as typed; each entry `name` or `name:port`, kept lower-cased. */
export function parseAllowedHosts(value: unknown, setting = 'allowed-hosts'): string[] {
  const entries = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (!Array.isArray(entries) || entries.length === 0)
    throw new ConfigError(setting, `expected a list of host names, got ${JSON.stringify(value)}`);
  return entries.map((entry) => {
    if (typeof entry !== 'string' || !HOST_ENTRY.test(entry)) {
      throw new ConfigError(
        setting,
        `expected host names like 'commerce' or 'mock.internal:8080' (no scheme, no path), got ${JSON.stringify(entry)}`,
      );
    }
    return entry.toLowerCase();
  });
}

/** The `deprecations` option: each entry checked like a fixture's, errors named `deprecations[i].field`. */
export function parseDeprecations(value: unknown, setting = 'deprecations'): DeprecationInfo[] {
  if (!Array.isArray(value))
    throw new ConfigError(setting, `expected a list of {operation_id, deprecated_at, sunset, link}, got ${JSON.stringify(value)}`);
  const seen = new Set<string>();
  return value.map((entry, i) => {
    let info: DeprecationInfo;
    try {
      info = parseDeprecation(entry);
    } catch (error) {
      if (!(error instanceof DeprecationRuleError)) throw error;
      throw new ConfigError(`${setting}[${i}]${error.field ? `.${error.field}` : ''}`, error.message);
    }
    if (seen.has(info.operationId))
      throw new ConfigError(`${setting}[${i}].operation_id`, `operation '${info.operationId}' is listed twice`);
    seen.add(info.operationId);
    return info;
  });
}

/** `report`: a file path, resolved against the working directory; an existing directory is refused at start, not at shutdown. */
export function parseReportPath(value: unknown, setting = 'report'): string {
  const file = path.resolve(nonEmptyString(value, setting));
  let isDirectory = false;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    // Not there yet: written (its folder made) on close.
  }
  if (isDirectory) throw new ConfigError(setting, `${JSON.stringify(value)} is a directory; give a file path, e.g. reports/sandbox.json`);
  return file;
}

function nonEmptyString(value: unknown, setting: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(setting, `expected a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

/** Fills defaults and checks every option. Programmatic default port is 0 (any free port). */
export function resolveOptions(options: MockOptions = {}): ResolvedOptions {
  const seed = options.seed ?? 1;
  if (!(typeof seed === 'number' && Number.isFinite(seed)) && !(typeof seed === 'string' && seed !== '')) {
    throw new ConfigError('seed', `expected a number or a non-empty string, got ${JSON.stringify(seed)}`);
  }
  const scenarios = options.scenarios ?? [];
  if (!Array.isArray(scenarios) || scenarios.some((s) => typeof s !== 'string' || s === '')) {
    throw new ConfigError('scenario', `expected a list of scenario names, got ${JSON.stringify(scenarios)}`);
  }
  const rateLimitSetting = options.rateLimit ?? 'spec';
  return {
    port: parsePort(options.port ?? 0),
    host: nonEmptyString(options.host ?? '127.0.0.1', 'host'),
    fixtures: nonEmptyString(options.fixtures ?? 'default', 'fixtures'),
    scenarios,
    scenariosDir: options.scenariosDir === undefined ? undefined : path.resolve(nonEmptyString(options.scenariosDir, 'scenarios-dir')),
    journalSize: parseJournalSize(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    journalBodyLimit: parseJournalBodyLimit(options.journalBodyLimit ?? DEFAULT_JOURNAL_BODY_LIMIT),
    journalBudget: parseByteBudget(options.journalBudget ?? DEFAULT_JOURNAL_BUDGET, 'journal-budget'),
    idempotencyBudget: parseByteBudget(options.idempotencyBudget ?? DEFAULT_IDEMPOTENCY_BUDGET, 'idempotency-budget'),
    idempotencyTotalBudget: parseByteBudget(options.idempotencyTotalBudget ?? DEFAULT_IDEMPOTENCY_TOTAL_BUDGET, 'idempotency-total-budget'),
    seed: String(seed),
    clock: parseClock(options.clock ?? 'running'),
    adminToken: options.adminToken === undefined ? undefined : nonEmptyString(options.adminToken, 'admin-token'),
    allowedHosts: options.allowedHosts === undefined ? [] : parseAllowedHosts(options.allowedHosts),
    shutdownGraceMs: parseShutdownGrace(options.shutdownGrace ?? DEFAULT_SHUTDOWN_GRACE_MS),
    webhookTimeoutMs: parseWebhookTimeout(options.webhookTimeout ?? DEFAULT_WEBHOOK_TIMEOUT_MS),
    webhookConcurrency: parseWebhookConcurrency(options.webhookConcurrency ?? DEFAULT_WEBHOOK_CONCURRENCY),
    webhookInflightBudget: parseByteBudget(options.webhookInflightBudget ?? DEFAULT_WEBHOOK_INFLIGHT_BUDGET, 'webhook-inflight-budget'),
    deletedIdsBudget: parseByteBudget(options.deletedIdsBudget ?? DEFAULT_DELETED_IDS_BUDGET, 'deleted-ids-budget'),
    deliveryLogBudget: parseByteBudget(options.deliveryLogBudget ?? DEFAULT_DELIVERY_LOG_BUDGET, 'delivery-log-budget'),
    deliveryLogSandboxBudget: parseByteBudget(
      options.deliveryLogSandboxBudget ?? DEFAULT_DELIVERY_LOG_SANDBOX_BUDGET,
      'delivery-log-sandbox-budget',
    ),
    webhookResponseLimit: parseByteBudget(options.webhookResponseLimit ?? DEFAULT_WEBHOOK_RESPONSE_LIMIT, 'webhook-response-limit'),
    findingsBudget: parseByteBudget(options.findingsBudget ?? DEFAULT_FINDINGS_BUDGET, 'findings-budget'),
    findingsRules: parseFindingsRules(options.findingsRules ?? ''),
    recordBudget: parseByteBudget(options.recordBudget ?? DEFAULT_RECORD_BUDGET, 'record-budget'),
    rateLimit: parseRateLimit(rateLimitSetting),
    rateLimitSetting,
    log: options.log ?? false,
    report: options.report === undefined ? undefined : parseReportPath(options.report),
    deprecations: parseDeprecations(options.deprecations ?? []),
  };
}
