import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import { CALLED_OPERATIONS, typeCheckGeneratedClient, type GeneratedClientCheck } from '../support/generated-client.js';
import { client, makeApp } from '../support/harness.js';

// Generating and type-checking a client is compiler work: seconds on an idle machine, more on a busy
// one. The timeout is a safety net for a hung compiler, not a budget any assertion depends on.
const COMPILER_TIMEOUT_MS = 180_000;

describe('a client generated from GET /openapi.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-generated-client-'));
  let check: GeneratedClientCheck;

  beforeAll(async () => {
    const served = await client(makeApp()).get('/openapi.json');
    expect(served.status).toBe(200);
    check = await typeCheckGeneratedClient(served.body, dir);
  }, COMPILER_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the program calls every operation of the document', () => {
    expect([...new Set(CALLED_OPERATIONS)].sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path}`).sort());
  });

  it('openapi-typescript + openapi-fetch types compile under strict, README PATCH body included', () => {
    expect(check.diagnostics).toEqual([]);
  });

  it('free-form objects (answers, metadata, custom_data) are maps of unknown values, never Record<string, never>', () => {
    for (const name of ['answers', 'metadata', 'custom_data']) {
      const types = [...check.schema.matchAll(new RegExp(`\\b${name}\\??: ([^;]*)`, 'g'))].map((m) => m[1]!);
      expect(types.length, name).toBeGreaterThan(0);
      for (const type of types) expect(type, name).not.toMatch(/Record<string, never>/);
    }
    expect(check.schema).toMatch(/metadata\??: \{\s*\[key: string\]: unknown;?\s*\}/);
  });

  it('no generated schema type is named after a global (such as Error)', () => {
    const block = check.schema.slice(check.schema.indexOf('\n    schemas: {'), check.schema.indexOf('\n    responses:'));
    const names = [...block.matchAll(/^ {8}(\w+): /gm)].map((m) => m[1]!);
    expect(names).toContain('ApiKey');
    expect(names.filter((name) => name in globalThis)).toEqual([]);
  });
});
