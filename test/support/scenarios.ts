/**
 * Helpers of the scenario and journal tests: activate through the admin API, read the journal,
 * write scenario directories on the fly, and build a request for any operation of the table (so a
 * test written over OPERATIONS covers operations added later without changes).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type request from 'supertest';
import { expect } from 'vitest';
import type { OperationDef } from '../../src/operations/types.js';
import type { Client } from './jobs.js';

export async function activate(c: Client, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await c.post('/__admin/scenarios').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function journal(c: Client, query = ''): Promise<Array<Record<string, any>>> {
  const res = await c.get(`/__admin/requests${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function activeScenarios(c: Client): Promise<Array<Record<string, any>>> {
  const res = await c.get('/__admin/scenarios');
  expect(res.status).toBe(200);
  return res.body.active;
}

/** A directory holding `files` (name -> JSON value, or raw text); returns its path. */
export function scenarioDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-scenarios-'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** `/v1` + the operation's path with every path parameter filled by a well-formed id nobody has. */
export function pathFor(op: OperationDef): string {
  return `/v1${op.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => `${name.replace(/_id$/, '')}_nope`)}`;
}

/** One request to `op`: whatever the operation makes of it, scenarios act before validation. */
export function send(c: Client, op: OperationDef, token: string, headers: Record<string, string> = {}): request.Test {
  const method = op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  const req = c[method](pathFor(op)).set({ Authorization: `Bearer ${token}`, ...headers });
  return op.body ? req.send({}) : req;
}
