/**
 * A scenario file: data, validated at load (scenarios/README.md documents the language).
 *
 *   { "description": "…",
 *     "params": { "retry_after": { "type": "integer", "minimum": 0, "default": 30 } },
 *     "rules": [ { "match": { "methods": ["POST"] },
 *                  "effect": { "error": { "code": "rate_limit_exceeded", "retry_after": { "$param": "retry_after" } } } } ] }
 *
 * Params are JSON Schemas, each with a default, so a scenario can always be activated by its name
 * alone; an effect refers to one with `{"$param": name}` in place of a value. A file's shape and
 * its effects, with every param at its default, are checked at load (src/scenarios/shape.ts), so a
 * broken file fails at start-up naming the file and the JSON path, not at its first use; at
 * activation the params given are checked against their schemas and the effects checked again.
 *
 * The effect language is src/scenarios/effect.ts; params and their references, src/scenarios/params.ts.
 */
import type { ValidateFunction } from 'ajv';
import { emptyFieldErrors } from '../errors/api-error.js';
import { DataFileError } from '../errors/data-file-error.js';
import { compileQuerySchema, compileSchema, describeSchemaError } from '../operations/validation.js';
import type { JsonSchema } from '../operations/types.js';
import { resolveEffect, RuleError, set, type ResolvedRule } from './effect.js';
import { ajvProblem, checkRefs, paramName, ScenarioParamsError, substitute } from './params.js';
import { check, type Shape } from './shape.js';

// The error effect's type, where the HTTP layer has always found it.
export type { ErrorEffect } from './effect.js';

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

const MATCH_SHAPE: Shape = {
  kind: 'object',
  fields: {
    operations: { kind: 'array', minItems: 1, unique: true, items: { kind: 'string', minLength: 1 } },
    methods: { kind: 'array', minItems: 1, unique: true, items: { kind: 'enum', values: METHODS } },
  },
};

/** The file's shape; effects are checked separately, once their params are filled in. */
const FILE_SHAPE: Shape = {
  kind: 'object',
  required: ['description', 'rules'],
  fields: {
    $schema: { kind: 'string' },
    description: { kind: 'string', minLength: 1, maxLength: 500 },
    // Each param is a JSON Schema (checked by ajv) with a default.
    params: { kind: 'map', key: paramName, value: { kind: 'object', open: true, required: ['default'], fields: {} } },
    rules: {
      kind: 'array',
      minItems: 1,
      items: {
        kind: 'object',
        required: ['effect'],
        fields: { description: { kind: 'string' }, match: MATCH_SHAPE, effect: { kind: 'any' } },
      },
    },
  },
};

interface RawRule {
  description?: string;
  match?: { operations?: string[]; methods?: string[] };
  effect: Record<string, unknown>;
}

interface RawScenario {
  description: string;
  params?: Record<string, JsonSchema & { default: unknown }>;
  rules: RawRule[];
}

/** A scenario file that breaks the language: names the file and the JSON path inside it. */
export class ScenarioFileError extends DataFileError {
  constructor(file: string, pointer: string, detail: string) {
    super('scenario', file, pointer, detail);
    this.name = 'ScenarioFileError';
  }
}

export interface ParseOptions {
  /**
   * Compile the params' JSON Schemas with ajv and check each default against its schema. On for
   * users' files; off for the shipped ones, whose params the test suite checks, so that start-up
   * needs no ajv (its first compile is most of a cold start). Either way the effects are checked
   * with every param at its default, and given params are checked against their schemas.
   */
  checkParamSchemas: boolean;
}

export class ScenarioDefinition {
  readonly description: string;
  /** The declared params: name -> JSON Schema with its default. */
  readonly params: Readonly<Record<string, JsonSchema>>;
  private readonly rules: RawRule[];
  /** The params object's schema, defaults left out (they are filled in before checking). */
  private readonly paramsSchema: JsonSchema;
  /** Compiled when first needed: compiling is most of the cost of loading a file. */
  private validators: { json?: ValidateFunction; text?: ValidateFunction } = {};

  private constructor(
    readonly name: string,
    readonly file: string,
    raw: RawScenario,
  ) {
    this.description = raw.description;
    this.params = raw.params ?? {};
    this.rules = raw.rules;
    // A default inside `properties` is what ajv's strict mode refuses alone; the defaults are applied by hand.
    const properties = Object.fromEntries(Object.entries(this.params).map(([name, { default: _, ...schema }]) => [name, schema]));
    this.paramsSchema = { type: 'object', additionalProperties: false, properties };
  }

  private defaults(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.params).map(([name, schema]) => [name, structuredClone(schema.default)]));
  }

  private validator(mode: 'json' | 'text'): ValidateFunction {
    return (this.validators[mode] ??= mode === 'json' ? compileSchema(this.paramsSchema) : compileQuerySchema(this.paramsSchema));
  }

  /** Parses and checks a file's JSON; throws ScenarioFileError naming the file and the path. */
  static parse(name: string, file: string, raw: unknown, options: ParseOptions = { checkParamSchemas: true }): ScenarioDefinition {
    const fail = (pointer: string, detail: string): never => {
      throw new ScenarioFileError(file, pointer || '/', detail);
    };
    const copy = structuredClone(raw);
    const problem = check(copy, FILE_SHAPE);
    if (problem) fail(problem.pointer, problem.detail);
    const definition = new ScenarioDefinition(name, file, copy as RawScenario);
    if (options.checkParamSchemas) definition.checkParams(fail);
    const declared = new Set(Object.keys(definition.params));
    definition.rules.forEach((rule, i) => checkRefs(rule.effect, declared, `/rules/${i}/effect`, fail));
    // Every param at its default: a file whose effects cannot work fails here, not at first use.
    try {
      definition.resolve({}, 'json');
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      const atDefault =
        error.param === undefined
          ? ''
          : ` (param '${error.param}' at its default ${JSON.stringify(definition.params[error.param]?.default)})`;
      fail(`/rules/${error.rule}/effect${error.pointer}`, `${error.message}${atDefault}`);
    }
    return definition;
  }

  /** Every param schema compiles and its default satisfies it (one compile for all of them). */
  private checkParams(fail: (pointer: string, detail: string) => never): void {
    if (Object.keys(this.params).length === 0) return;
    let validate: ValidateFunction;
    try {
      validate = this.validator('json');
    } catch {
      // Find which param's schema is broken, to name it.
      for (const [param, schema] of Object.entries(this.paramsSchema.properties as Record<string, JsonSchema>)) {
        try {
          compileSchema(schema);
        } catch (error) {
          fail(`/params/${param}`, `not a valid JSON Schema: ${(error as Error).message}`);
        }
      }
      return fail('/params', 'not valid JSON Schemas');
    }
    if (!validate(this.defaults())) {
      const { pointer, detail } = ajvProblem(validate);
      const [, param, ...inside] = pointer.split('/');
      fail(`/params/${param ?? ''}/default`, `${inside.length > 0 ? `/${inside.join('/')} ` : ''}${detail}`);
    }
  }

  /** Operation ids the rules name in `match.operations`, with their JSON pointers. */
  namedOperations(): Array<{ operationId: string; pointer: string }> {
    return this.rules.flatMap((rule, i) =>
      (rule.match?.operations ?? []).map((operationId, j) => ({ operationId, pointer: `/rules/${i}/match/operations/${j}` })),
    );
  }

  /**
   * The rules with `params` filled in over the defaults. `text` params (from a Prefer header or a
   * boot spec) are coerced by their schemas: `retry_after=5` is the integer 5. Throws
   * ScenarioParamsError naming the params at fault.
   */
  resolve(given: Record<string, unknown>, mode: 'json' | 'text'): { params: Record<string, unknown>; rules: ResolvedRule[] } {
    const params = this.checkGivenParams(given, mode);
    const rules = this.rules.map((rule, i) => {
      const refs = new Map<string, string>();
      const effect = substitute(rule.effect, params, '', refs) as Record<string, unknown>;
      try {
        return { operations: set(rule.match?.operations), methods: set(rule.match?.methods), effect: resolveEffect(effect) };
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        // The six-month rule is reported on `sunset`, but `deprecated_at` may be the param that moved:
        // blame a param the caller gave, else the one at the pointer.
        const suspects = [
          refs.get(error.pointer),
          ...(error.pointer.startsWith('/deprecate') ? [refs.get('/deprecate/deprecated_at')] : []),
        ];
        const param =
          suspects.find((name) => name !== undefined && Object.hasOwn(given, name)) ?? suspects.find((name) => name !== undefined);
        // At the defaults, the file itself is at fault: report the rule and the path.
        if (param === undefined || Object.keys(given).length === 0) throw Object.assign(error, { rule: i, param });
        throw new ScenarioParamsError({ [param]: [error.message] });
      }
    });
    return { params, rules };
  }

  /** The given params over the defaults, checked (and, as text, converted) by their schemas. */
  private checkGivenParams(given: Record<string, unknown>, mode: 'json' | 'text'): Record<string, unknown> {
    const params = { ...this.defaults(), ...structuredClone(given) };
    // The defaults were checked at load.
    if (Object.keys(given).length === 0) return params;
    const validate = this.validator(mode);
    if (validate(params)) return params;
    const errors = emptyFieldErrors();
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'additionalProperties') {
        const name = String(error.params.additionalProperty);
        const known = Object.keys(this.params);
        (errors[name] ??= []).push(`is not a param of '${this.name}' (its params: ${known.join(', ') || 'none'})`);
        continue;
      }
      const name = error.instancePath.split('/')[1] ?? '';
      (errors[name] ??= []).push(describeSchemaError(error));
    }
    throw new ScenarioParamsError(errors);
  }
}
