/**
 * In-process test harness: the app on supertest with a frozen clock and the default fixture.
 * `expectError` asserts the whole envelope and the headers every /v1 error must carry.
 *
 * Every app made or used here (`makeApp`, `client`, `startServer`) has its /v1 responses checked
 * against its own OpenAPI document (test/support/contract.ts); a test that receives a response the
 * document does not describe fails. Use these helpers rather than `createApp` directly.
 */
import request from 'supertest';
import { expect } from 'vitest';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import type { ErrorCode } from '../../src/errors/catalog.js';
import { ERROR_CATALOG } from '../../src/errors/catalog.js';
import { startMockServer, type MockServer } from '../../src/server.js';
import { checkContracts } from './contract.js';

export const FROZEN_AT = '2026-01-15T12:00:00Z';

/** Documented keys of the default fixture (README "Default keys"). */
export const KEYS = {
  free: 'cc_test_free_default_key',
  freeReadOnly: 'cc_test_free_read_only_key',
  paid: 'cc_test_paid_default_key',
} as const;

export const ACCOUNTS = { free: 'acct_free_default', paid: 'acct_paid_default' } as const;

export function makeApp(options: CreateAppOptions = {}): MockApp {
  return checkContracts(createApp({ clock: FROZEN_AT, ...options }));
}

export function client(app: MockApp) {
  return request(checkContracts(app).callback());
}

/** The server on a loopback port (`port: 0`), its responses contract-checked like in-process ones. */
export async function startServer(options: CreateAppOptions = {}): Promise<MockServer> {
  const mock = await startMockServer({ clock: FROZEN_AT, ...options });
  checkContracts(mock.app);
  return mock;
}

export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Every /v1 response carries these (spec §4 common rules, §7.3.4; contract §2). */
export function expectApiHeaders(res: request.Response): void {
  expect(res.headers['request-id']).toMatch(/^req_\d+$/);
  expect(res.headers['x-request-id']).toBe(res.headers['request-id']);
  for (const name of RATE_LIMIT_HEADERS) expect(res.headers[name], name).toBeDefined();
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

export interface ExpectedError {
  message?: string | RegExp;
  param?: string;
  errors?: Record<string, unknown>;
  /** Extra members of the error object, e.g. `plan_tier`. */
  extra?: Record<string, unknown>;
  /** False for responses outside /v1 (admin), which carry no rate-limit headers. */
  api?: boolean;
}

/** Asserts status, the complete envelope (spec §7.1) and the headers. */
export function expectError(res: request.Response, code: ErrorCode, expected: ExpectedError = {}): void {
  const entry = ERROR_CATALOG[code];
  expect(res.status, JSON.stringify(res.body)).toBe(entry.status);
  if (expected.api === false) {
    expect(res.headers['request-id']).toMatch(/^req_\d+$/);
  } else {
    expectApiHeaders(res);
  }
  const error = res.body.error as Record<string, unknown>;
  const expectedKeys = ['type', 'code', 'message'];
  if (expected.param !== undefined) expectedKeys.push('param');
  if (expected.errors !== undefined) expectedKeys.push('errors');
  expectedKeys.push(...Object.keys(expected.extra ?? {}));
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(error).sort()).toEqual(expectedKeys.sort());
  expect(error.type).toBe(entry.type);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  if (expected.message instanceof RegExp) expect(error.message).toMatch(expected.message);
  else if (expected.message !== undefined) expect(error.message).toBe(expected.message);
  if (expected.param !== undefined) expect(error.param).toBe(expected.param);
  if (expected.errors !== undefined) expect(error.errors).toEqual(expected.errors);
  for (const [k, v] of Object.entries(expected.extra ?? {})) expect(error[k]).toEqual(v);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
}
