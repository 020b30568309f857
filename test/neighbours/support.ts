/**
 * What the neighbour goal tests share: the built CLI started on a frozen clock with no rate limit
 * (the hostile tenant is not throttled: what is measured is what the sandbox keeps), small admin
 * calls, and a neighbour tenant of its own. Every child is killed when its file ends (support/cli.ts).
 */
import { request } from 'node:http';
import { expect } from 'vitest';
import { measureListing } from '../../bench/hostile.js';
import { startCli, type RunningCli } from '../support/cli.js';

export const HOSTILE_KEY = 'cc_test_paid_default_key';
export const HOSTILE_ACCOUNT = 'acct_paid_default';
export const HOSTILE_INBOX = 'inbox_paid_support';
export const MiB = 2 ** 20;
/** The goals: the sandbox's peak RSS, and the size of any admin listing. */
export const RSS_BOUND = 512 * MiB;
export const LISTING_BOUND = 32 * MiB;

export function startSandbox(extra: string[] = []): Promise<RunningCli> {
  return startCli(['--port', '0', '--rate-limit', 'off', '--clock', '2026-01-01T00:00:00Z', ...extra]);
}

/**
 * One request on a connection of its own (`agent: false`): after the server has been kept busy, a
 * pooled keep-alive socket may be closed by its idle timer just as it is reused (ECONNRESET).
 */
export function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: T }> {
  const { hostname, port } = new URL(base);
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method,
        path,
        agent: false,
        headers: { ...(bytes ? { 'content-type': 'application/json', 'content-length': bytes.length } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, json: (text ? JSON.parse(text) : undefined) as T });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/** A tenant of its own (a new paid account, or with `clock`), and its key. */
export async function newTenant(base: string, extra: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const made = await call<{ account: { id: string }; api_key: { token: string } }>(base, 'POST', '/__admin/accounts', {
    plan: 'paid',
    ...extra,
  });
  if (made.status !== 201) throw new Error(`POST /__admin/accounts answered ${made.status}`);
  return { id: made.json.account.id, token: made.json.api_key.token };
}

/** The admin listings a dashboard or a test may read, at the largest `limit`s anyone may ask for. */
const LISTINGS = [
  '/__admin/requests?limit=200',
  '/__admin/requests?limit=1000',
  `/__admin/requests?limit=1000&account_id=${HOSTILE_ACCOUNT}`,
  '/__admin/webhook_deliveries?limit=50',
  '/__admin/webhook_deliveries?limit=1000',
  `/__admin/accounts/${HOSTILE_ACCOUNT}`,
];

export async function expectListingsBounded(base: string): Promise<void> {
  for (const path of LISTINGS) {
    // Reading stops one byte past the bound: a listing that large has already failed.
    const listing = await measureListing(base, path, LISTING_BOUND);
    expect(listing.error, path).toBeUndefined();
    expect(listing.status, path).toBe(200);
    expect(listing.bytes, path).toBeLessThan(LISTING_BOUND);
  }
}

/** The neighbour still gets its answers once the hostile tenant is done. */
export async function expectNeighbourServed(base: string): Promise<void> {
  const neighbour = await newTenant(base);
  const status = await call(base, 'GET', '/v1/status', undefined, { authorization: `Bearer ${neighbour.token}` });
  expect(status.status).toBe(200);
}
