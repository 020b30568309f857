/**
 * A large body schema (POST /__admin/accounts: `template`, `pinned`) is compiled in parts, each large
 * member when a body first has it: a body gets the same answer (status, code, param, failing fields
 * and their messages, in the same order) as from the whole schema compiled at once.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_OPERATIONS } from '../../src/admin/operations.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { JsonSchema } from '../../src/operations/types.js';
import { uncompiledParts } from '../../src/operations/split-schema.js';
import { compileDeclaredSchema, compileSchema, validateBody } from '../../src/operations/validation.js';

const createAccountBody = ADMIN_OPERATIONS.find((operation) => operation.route === 'POST /accounts')!.body as JsonSchema;

/** What validateBody answers for `body`: nothing, or the error as a client would read it. */
function answer(validate: ReturnType<typeof compileSchema>, body: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  try {
    validateBody(validate, copy, createAccountBody);
    return { valid: copy };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, param: error.param, errors: JSON.stringify(error.errors) };
  }
}

const BODIES: unknown[] = [
  { plan: 'paid' },
  { plan: 'gold' },
  { plan: 'paid', nope: 1 },
  { plan: 'paid', pinned: 3 },
  { plan: 'paid', template: [] },
  { plan: 'paid', pinned: { forms: [{ id: 'frm_x', preset: 'newsletter' }] } },
  { plan: 'gold', pinned: { forms: [{ id: 5 }], inboxes: [{ local_part: 7, nope: true }] }, name: '' },
  { plan: 'paid', pinned: { nope: [] } },
  { template: { credits: { free: -1 }, counts: { customers: 'many' } }, pinned: { experiences: [{ slug: 'x', type: 'nope' }] } },
  { template: { credits: { free: 1, paid: 1 }, counts: {} }, clock: 'frozen' },
  { plan: 'paid', findings: { rules: 'x' }, pinned: { discounts: [{}] } },
];

describe('a large body schema compiled in parts', () => {
  it('is split: its large members are not compiled until a body has them', () => {
    const split = compileDeclaredSchema(createAccountBody);
    expect(uncompiledParts(split).length).toBeGreaterThanOrEqual(2);
    answer(split, { plan: 'paid' });
    expect(uncompiledParts(split).length).toBeGreaterThanOrEqual(2);
    answer(split, { plan: 'paid', pinned: {}, template: { credits: { free: 1, paid: 1 }, counts: {} } });
    expect(uncompiledParts(split)).toEqual([]);
  });

  it.each(BODIES.map((body) => [JSON.stringify(body), body]))('answers %s as the whole schema does', (_name, body) => {
    const whole = compileSchema(createAccountBody);
    expect(answer(compileDeclaredSchema(createAccountBody), body)).toEqual(answer(whole, body));
  });
});

describe('a large member the stand-in would change is compiled with the rest', () => {
  /** A member over the split size: many listed members, each of a few hundred bytes of schema. */
  const large = (extra: Record<string, unknown>): JsonSchema => ({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'string', maxLength: 100, description: 'x'.repeat(200) }]),
    ),
    ...extra,
  });
  const schema = (member: JsonSchema): JsonSchema => ({
    type: 'object',
    additionalProperties: false,
    properties: { a: { type: 'string' }, big: member },
  });

  it('a default on the large member is filled when a body leaves it out, as the whole schema fills it', () => {
    const declared = schema(large({ default: { p0: 'd' } }));
    const split = compileDeclaredSchema(declared);
    expect(uncompiledParts(split)).toEqual([]);
    const body: Record<string, unknown> = { a: 'x' };
    validateBody(split, body, declared);
    expect(body).toEqual({ a: 'x', big: { p0: 'd' } });
  });

  it.each(['enum', 'const', 'anyOf'])(
    'a member with %s beside its type is compiled with the rest: a wrong type gets every error the whole schema gives',
    (keyword) => {
      const extra =
        keyword === 'enum' ? { enum: [{ p0: 'a' }] } : keyword === 'const' ? { const: { p0: 'a' } } : { anyOf: [{ minProperties: 1 }] };
      const declared = schema(large(extra));
      const split = compileDeclaredSchema(declared);
      expect(uncompiledParts(split)).toEqual([]);
      const errorsOf = (validate: ReturnType<typeof compileSchema>) => {
        try {
          validateBody(validate, { a: 'x', big: 'not an object' }, declared);
          return undefined;
        } catch (error) {
          return (error as ApiError).errors;
        }
      };
      expect(errorsOf(split)).toEqual(errorsOf(compileSchema(declared)));
      // The type error and, for the keywords that apply to any value, theirs beside it.
      if (keyword !== 'anyOf') expect((errorsOf(split) as Record<string, string[]>).big).toHaveLength(2);
    },
  );

  it('a plain large member is still split', () => {
    expect(uncompiledParts(compileDeclaredSchema(schema(large({})))).length).toBe(1);
  });
});
