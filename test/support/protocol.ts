/**
 * Helpers of the protocol tests: structured-field readers for the headers (RFC 9651, parsed by the
 * same library a client would use, never a regular expression), fixture files written on the fly,
 * and a spy on what the middlewares leave on `ctx.state`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseItem, parseList, type Item } from 'structured-headers';
import { afterEach, expect } from 'vitest';
import type { CreateAppOptions, MockApp } from '../../src/app.js';
import type { SandboxState } from '../../src/http/context.js';
import { FIXTURES_DIR } from '../../src/package-dirs.js';
import type { JournalOutcome } from '../../src/protocol/request-journal.js';
import { startMockServer, type MockServer } from '../../src/server.js';
import { checkContracts } from './contract.js';

interface HasHeaders {
  headers: Record<string, string | string[] | undefined> | Headers;
}

function header(res: HasHeaders, name: string): string {
  const value = res.headers instanceof Headers ? res.headers.get(name) : res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeTypeOf('string');
  return value as string;
}

/** The one member of a RateLimit / RateLimit-Policy list, named `default`, with its parameters. */
function defaultPolicyMember(res: HasHeaders, name: string): Map<string, unknown> {
  const list = parseList(header(res, name));
  expect(list, name).toHaveLength(1);
  const [value, params] = list[0] as Item;
  expect(value, `${name} policy name`).toBe('default');
  return params;
}

export interface RateLimitReading {
  /** RateLimit-Policy `q` and `w`. */
  quota: number;
  window: number;
  /** RateLimit `r` and `t`. */
  remaining: number;
  resetIn: number;
  /** The legacy headers. */
  legacyLimit: number;
  legacyRemaining: number;
  legacyReset: number;
}

/** Reads all five rate-limit headers (spec §8) and checks the legacy ones agree with the fields. */
export function readRateLimit(res: HasHeaders): RateLimitReading {
  const policy = defaultPolicyMember(res, 'RateLimit-Policy');
  const standing = defaultPolicyMember(res, 'RateLimit');
  expect([...policy.keys()]).toEqual(['q', 'w']);
  expect([...standing.keys()]).toEqual(['r', 't']);
  const reading: RateLimitReading = {
    quota: policy.get('q') as number,
    window: policy.get('w') as number,
    remaining: standing.get('r') as number,
    resetIn: standing.get('t') as number,
    legacyLimit: Number(header(res, 'X-RateLimit-Limit')),
    legacyRemaining: Number(header(res, 'X-RateLimit-Remaining')),
    legacyReset: Number(header(res, 'X-RateLimit-Reset')),
  };
  for (const n of [reading.quota, reading.window, reading.remaining, reading.resetIn, reading.legacyReset])
    expect(Number.isInteger(n)).toBe(true);
  expect(reading.legacyLimit).toBe(reading.quota);
  expect(reading.legacyRemaining).toBe(reading.remaining);
  return reading;
}

/** `Retry-After` as spec §8 requires it: integer seconds (delay-seconds, RFC 9110 §10.2.3). */
export function retryAfter(res: HasHeaders): number {
  const value = header(res, 'Retry-After');
  const seconds = Number(value);
  expect(Number.isInteger(seconds) && String(seconds) === value, `Retry-After ${value}`).toBe(true);
  return seconds;
}

/** `Deprecation` parsed as an RFC 9651 Item whose value must be a Date (RFC 9745). */
export function readDeprecation(res: HasHeaders): Date {
  const [value, params] = parseItem(header(res, 'Deprecation'));
  expect(value).toBeInstanceOf(Date);
  expect(params.size).toBe(0);
  return value as Date;
}

export function unixSecondsOf(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** Writes the default fixture with `changes` merged in to a temporary file; returns its path. */
export function writeFixture(changes: Record<string, unknown>, name = 'fixture.json'): string {
  const base = JSON.parse(readFileSync(path.join(FIXTURES_DIR, 'default.json'), 'utf8')) as Record<string, unknown>;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ccm-protocol-')), name);
  writeFileSync(file, JSON.stringify({ ...base, ...changes }, null, 2));
  return file;
}

/** Records `ctx.state` of every request once it is answered (as the journal reads it). */
export function spyOnState(app: MockApp): SandboxState[] {
  const seen: SandboxState[] = [];
  app.middleware.unshift(async (ctx, next) => {
    await next();
    seen.push(ctx.state);
  });
  return seen;
}

/** A promise with its resolver, for handlers that must wait until a test lets them go. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** For tests that need a real loopback socket: returns a starter; every server it started is closed after each test. */
export function mockServers(): (options: CreateAppOptions) => Promise<MockServer> {
  const started: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((mock) => mock.close()));
  });
  return async (options) => {
    const mock = await startMockServer(options);
    // Its responses are contract-checked like every harness app's (test/support/contract.ts).
    checkContracts(mock.app);
    started.push(mock);
    return mock;
  };
}

/** The outcome of an answered anonymous `GET` for journal unit tests, with `changes` over it. */
export function journalOutcome(changes: Partial<JournalOutcome> = {}): JournalOutcome {
  return {
    status: 200,
    account_id: null,
    api_key_id: null,
    operation_id: null,
    idempotent_replayed: false,
    scenario_ids: [],
    fault: null,
    raw_body: undefined,
    ...changes,
  };
}
