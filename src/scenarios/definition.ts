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
 */
import type { ValidateFunction } from 'ajv';
import { ERROR_CATALOG, type ErrorCode } from '../errors/catalog.js';
import { emptyFieldErrors, type FieldErrors } from '../errors/api-error.js';
import { DataFileError } from '../errors/data-file-error.js';
import { DeprecationRuleError, parseDeprecation } from '../protocol/deprecation.js';
import type { JobOutcomeDecision } from '../jobs/outcome.js';
import { compileQuerySchema, compileSchema, describeSchemaError } from '../operations/validation.js';
import type { JsonSchema } from '../operations/types.js';
import { FAULT_SHAPE, resolveFault, type FaultEffect } from './fault-effect.js';
import type { WebhookTwist } from '../webhooks/twists.js';
import { WEBHOOK_SHAPE } from './webhook-effect.js';
import { check, type Problem, type Shape } from './shape.js';

/** The longest `delay_ms` an effect may ask for: long enough for any client timeout test, short enough for a test run. */
export const MAX_DELAY_MS = 30_000;
/** The longest `retry_after` an error effect may announce (one day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Names that scope an activation; a param may not take one (boot specs and Prefer share one list). */
export const SCOPE_KEYS = ['account_id', 'api_key_id', 'operation_id', 'times'] as const;
/** Names an activation takes beside its scope and params (contract §4.2); not a param name either. */
export const ACTIVATION_KEYS = [...SCOPE_KEYS, 'probability'] as const;

const PARAM_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

const MATCH_SHAPE: Shape = {
  kind: 'object',
  fields: {
    operations: { kind: 'array', minItems: 1, unique: true, items: { kind: 'string', minLength: 1 } },
    methods: { kind: 'array', minItems: 1, unique: true, items: { kind: 'enum', values: METHODS } },
  },
};

function paramName(name: string): string | undefined {
  if (PARAM_NAME.test(name) && !([...ACTIVATION_KEYS, 'name'] as string[]).includes(name)) return undefined;
  return `invalid name '${name}' (lowercase letters, digits and _, not a scope key)`;
}

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

/** An effect with its params filled in. At least one part; parts combine (a delay, then an answer). */
export const EFFECT_SHAPE: Shape = {
  kind: 'object',
  nonEmpty: true,
  fields: {
    delay_ms: { kind: 'integer', min: 0, max: MAX_DELAY_MS },
    error: {
      kind: 'object',
      required: ['code'],
      fields: {
        code: { kind: 'enum', values: Object.keys(ERROR_CATALOG) },
        status: { kind: 'integer', min: 400, max: 599 },
        message: { kind: 'string', minLength: 1, maxLength: 1000 },
        retry_after: { kind: 'integer', min: 0, max: MAX_RETRY_AFTER_SECONDS },
      },
    },
    expire_key: { kind: 'true' },
    fault: FAULT_SHAPE,
    webhook: WEBHOOK_SHAPE,
    deprecate: {
      kind: 'object',
      required: ['deprecated_at', 'sunset', 'link'],
      fields: { deprecated_at: { kind: 'string' }, sunset: { kind: 'string' }, link: { kind: 'string' } },
    },
    job: {
      kind: 'object',
      nonEmpty: true,
      fields: {
        outcome: { kind: 'enum', values: ['completed', 'failed', 'cancelled'] },
        error: { kind: 'string', minLength: 1, maxLength: 1000 },
        error_code: { kind: 'string', pattern: /^[a-z][a-z0-9_]{0,63}$/ },
        at_progress: { kind: 'integer', min: 0, max: 99 },
        slow_factor: { kind: 'number', above: 0, max: 1000 },
      },
    },
  },
};

export interface ErrorEffect {
  code: ErrorCode;
  status?: number;
  message?: string;
  retry_after?: number;
}

export interface ResolvedEffect {
  delayMs?: number;
  error?: ErrorEffect;
  expireKey?: true;
  /** The answer lost on the way (contract §4.2). */
  fault?: FaultEffect;
  /** Whole-second epoch ms and the link, checked against the six-month rule. */
  deprecate?: { deprecatedAt: number; sunset: number; link: string };
  job?: JobOutcomeDecision;
  /** What goes wrong with the scoped accounts' webhooks (contract §4.3); never acts on a request. */
  webhook?: WebhookTwist;
}

export interface ResolvedRule {
  operations: ReadonlySet<string> | undefined;
  methods: ReadonlySet<string> | undefined;
  effect: ResolvedEffect;
}

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

/** Params refused at activation, keyed by param name. */
export class ScenarioParamsError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(
      Object.entries(errors)
        .map(([name, messages]) => `${name} ${messages.join(', ')}`)
        .join('; '),
    );
    this.name = 'ScenarioParamsError';
  }
}

/** The deepest of ajv's errors (a property's come before its parents'), in the fixture errors' words. */
function ajvProblem(validate: ValidateFunction): Problem {
  const errors = validate.errors ?? [];
  const error = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0];
  if (!error) return { pointer: '', detail: 'is invalid' };
  if (error.keyword === 'additionalProperties')
    return { pointer: error.instancePath, detail: `unknown field '${String(error.params.additionalProperty)}'` };
  if (error.keyword === 'required')
    return { pointer: error.instancePath, detail: `missing field '${String(error.params.missingProperty)}'` };
  return { pointer: error.instancePath, detail: describeSchemaError(error) };
}

function isParamRef(value: unknown): value is { $param: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && '$param' in value;
}

/**
 * Replaces every `{"$param": name}` in an effect with the param's value, recording where each
 * reference sits (a JSON pointer inside the effect), so a value refused later is named by its param.
 */
function substitute(value: unknown, params: Record<string, unknown>, pointer: string, refs: Map<string, string>): unknown {
  if (isParamRef(value)) {
    refs.set(pointer, value.$param as string);
    return params[value.$param as string];
  }
  if (Array.isArray(value)) return value.map((item, i) => substitute(item, params, `${pointer}/${i}`, refs));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, substitute(v, params, `${pointer}/${k}`, refs)] as const);
    // A param that is null leaves its property out, so the effect's own default applies
    // (rate-limited's `retry_after`: null sends the seconds until the window resets).
    return Object.fromEntries(entries.filter(([k, v]) => !(v === null && isParamRef((value as Record<string, unknown>)[k]))));
  }
  return value;
}

/** Checks every `$param` reference names a declared param and stands alone. */
function checkRefs(value: unknown, declared: ReadonlySet<string>, pointer: string, fail: (pointer: string, detail: string) => never): void {
  if (isParamRef(value)) {
    const keys = Object.keys(value);
    if (keys.length !== 1 || typeof value.$param !== 'string') fail(pointer, 'a param reference is exactly {"$param": "<name>"}');
    if (!declared.has(value.$param)) {
      fail(`${pointer}/$param`, `unknown param '${String(value.$param)}' (declared: ${[...declared].join(', ') || 'none'})`);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) checkRefs(v, declared, `${pointer}/${k}`, fail);
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

/** An effect that breaks the language once its params are in: the pointer is inside the effect. */
class RuleError extends Error {
  rule = 0;
  param: string | undefined;
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

function set(values: readonly string[] | undefined): ReadonlySet<string> | undefined {
  return values ? new Set(values) : undefined;
}

function resolveEffect(effect: Record<string, unknown>): ResolvedEffect {
  const problem = check(effect, EFFECT_SHAPE);
  if (problem) throw new RuleError(problem.pointer, problem.detail);
  const raw = effect as {
    delay_ms?: number;
    error?: ErrorEffect;
    expire_key?: true;
    fault?: Parameters<typeof resolveFault>[0];
    deprecate?: { deprecated_at: string; sunset: string; link: string };
    job?: JobOutcomeDecision;
    webhook?: WebhookTwist;
  };
  // Both answer the request: one effect cannot give two answers.
  if (raw.error && raw.expire_key)
    throw new RuleError('/expire_key', "cannot be combined with 'error' in one effect (both answer the request)");
  const resolved: ResolvedEffect = {};
  if (raw.delay_ms !== undefined) resolved.delayMs = raw.delay_ms;
  if (raw.error) resolved.error = raw.error;
  if (raw.expire_key) resolved.expireKey = true;
  if (raw.fault) resolved.fault = resolveFault(raw.fault);
  if (raw.job) resolved.job = raw.job;
  if (raw.webhook) resolved.webhook = raw.webhook;
  if (raw.deprecate) {
    try {
      // The operation is the one each request names; any valid id stands in for the check.
      const info = parseDeprecation({ operation_id: 'scenario', ...raw.deprecate });
      resolved.deprecate = { deprecatedAt: info.deprecatedAt, sunset: info.sunset, link: info.link };
    } catch (error) {
      if (!(error instanceof DeprecationRuleError)) throw error;
      throw new RuleError(`/deprecate${error.field ? `/${error.field}` : ''}`, error.message);
    }
  }
  return resolved;
}
