/** One declaration per operation drives routing and validation; the error catalog matches the README. */
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/errors/catalog.js';
import { compileQuerySchema, compileSchema, validatorsFor } from '../../src/operations/validation.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { client, expectError, makeApp } from '../support/harness.js';
import { docPage } from '../support/docs.js';

function concretePath(path: string): string {
  return `/v1${path.replace(/\{[a-z_]+\}/g, 'x_1')}`;
}

describe('the operation table', () => {
  it('has unique operation ids and method + path pairs', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    const routes = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('compiles every schema (lazily at run time, so a broken one must fail here)', () => {
    for (const op of OPERATIONS) expect(() => validatorsFor(op)).not.toThrow();
  });

  it('declares schemas the JSON Schema meta-schema accepts (the run-time compile skips that check)', () => {
    for (const op of OPERATIONS) {
      for (const schema of [op.query, op.params]) if (schema) expect(() => compileQuerySchema(schema), op.operationId).not.toThrow();
      if (op.body) expect(() => compileSchema(op.body!), op.operationId).not.toThrow();
    }
  });

  it.each(OPERATIONS.map((op) => [op.operationId, op] as const))('routes %s and requires authentication (spec §5.1)', async (_id, op) => {
    const res = await client(makeApp())[op.method.toLowerCase() as 'get'](concretePath(op.path));
    expectError(res, 'authentication_required');
  });

  it('declares for every operation the spec section, a success schema and the documented error statuses', () => {
    for (const op of OPERATIONS) {
      expect(op.specSection).toMatch(/^4\.\d+$/);
      expect(op.success.schema).toBeTypeOf('object');
      expect(op.errors.length).toBeGreaterThan(0);
      for (const status of op.errors)
        expect(
          Object.values(ERROR_CATALOG).some((e) => e.status === status),
          `${op.operationId} ${status}`,
        ).toBe(true);
    }
  });
});

describe('the error catalog (spec §7.2) and the README', () => {
  const readme = docPage('errors');

  it('documents every code in the README errors table with its status and type', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      const row = readme.split('\n').find((line) => line.includes(`| \`${code}\` |`));
      expect(row, `README row for ${code}`).toBeDefined();
      expect(row).toContain(`| ${entry.status} | ${entry.type} |`);
      if ('extension' in entry) expect(row).toContain('*extension*');
    }
  });

  it('keeps every code of the spec table', () => {
    expect(Object.keys(ERROR_CATALOG)).toEqual(
      expect.arrayContaining([
        'bad_request',
        'parameter_missing',
        'parameter_unknown',
        'authentication_required',
        'forbidden',
        'resource_missing',
        'validation_failed',
        'rate_limit_exceeded',
        'internal_error',
      ]),
    );
  });
});
