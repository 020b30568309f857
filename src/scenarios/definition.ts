/**
 * A scenario file: data, validated at load (scenarios/README.md documents the language).
 *
 *   { "description": "…",
 *     "params": { "retry_after": { "type": "integer", "minimum": 0, "default": 30 } },
 *     "rules": [ { "match": { "methods": ["POST"] },
 *                  "effect": { "error": { "code": "rate_limit_exceeded", "retry_after": { "$param": "retry_after" } } } } ] }
 *
 * Params are JSON Schemas, each with a default, so a scenario can always be activated by its name
 * alone; an effect refers to one with `{"$param": name}` in place of a value. A file is checked with
 * every param at its default, so a broken file fails at load (naming the file and the JSON path)
 * rather than at its first use; at activation the params given are checked against their schemas
 * and the effects against the effect schema again.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ERROR_CATALOG, type ErrorCode } from '../errors/catalog.js';
import type { FieldErrors } from '../errors/api-error.js';
import { DeprecationRuleError, parseDeprecation } from '../http/deprecation.js';
import type { JobOutcomeDecision } from '../jobs/outcome.js';
import { compileQuerySchema, compileSchema, describeSchemaError } from '../operations/validation.js';
import type { JsonSchema } from '../operations/types.js';

/** The longest `delay_ms` an effect may ask for: long enough for any client timeout test, short enough for a test run. */
export const MAX_DELAY_MS = 30_000;
/** The longest `retry_after` an error effect may announce (one day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Names that scope an activation; a param may not take one (boot specs and Prefer share one list). */
export const SCOPE_KEYS = ['account_id', 'api_key_id', 'operation_id', 'times'] as const;

const PARAM_NAME = '^[a-z][a-z0-9_]{0,63}$';
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

const MATCH_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    operations: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
    methods: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: METHODS } },
  },
};

/** The file's shape; effects are checked separately, once their params are filled in. */
const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'rules'],
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string', minLength: 1, maxLength: 500 },
    params: {
      type: 'object',
      propertyNames: { pattern: PARAM_NAME, not: { enum: [...SCOPE_KEYS, 'name'] } },
      additionalProperties: { type: 'object', required: ['default'], properties: { default: true } },
    },
    rules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['effect'],
        properties: { description: { type: 'string' }, match: MATCH_SCHEMA, effect: { type: 'object' } },
      },
    },
  },
};

/** An effect with its params filled in. At least one part; parts combine (a delay, then an answer). */
export const EFFECT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    delay_ms: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: {
        code: { enum: Object.keys(ERROR_CATALOG) },
        status: { type: 'integer', minimum: 400, maximum: 599 },
        message: { type: 'string', minLength: 1, maxLength: 1000 },
        retry_after: { type: 'integer', minimum: 0, maximum: MAX_RETRY_AFTER_SECONDS },
      },
    },
    expire_key: { const: true },
    deprecate: {
      type: 'object',
      additionalProperties: false,
      required: ['deprecated_at', 'sunset', 'link'],
      properties: { deprecated_at: { type: 'string' }, sunset: { type: 'string' }, link: { type: 'string' } },
    },
    job: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        outcome: { enum: ['completed', 'failed', 'cancelled'] },
        error: { type: 'string', minLength: 1, maxLength: 1000 },
        error_code: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
        at_progress: { type: 'integer', minimum: 0, maximum: 99 },
        slow_factor: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
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
  /** Whole-second epoch ms and the link, checked against the six-month rule. */
  deprecate?: { deprecatedAt: number; sunset: number; link: string };
  job?: JobOutcomeDecision;
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
export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    detail: string,
  ) {
    super(`scenario ${file}${pointer ? ` at ${pointer}` : ''}: ${detail}`);
    this.name = 'ScenarioFileError';
  }
}

/** Params refused at activation, keyed by param name. */
export class ScenarioParamsError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(Object.entries(errors).map(([name, messages]) => `${name} ${messages.join(', ')}`).join('; '));
    this.name = 'ScenarioParamsError';
  }
}

/** Where a schema error points and what it says, in the words the fixture errors use. */
function problem(error: ErrorObject): { pointer: string; detail: string } {
  switch (error.keyword) {
    case 'additionalProperties':
      return { pointer: error.instancePath, detail: `unknown field '${String(error.params.additionalProperty)}'` };
    case 'required':
      return { pointer: error.instancePath, detail: `missing field '${String(error.params.missingProperty)}'` };
    case 'propertyNames':
      return { pointer: error.instancePath, detail: `invalid name '${String(error.params.propertyName)}' (lowercase letters, digits and _, not a scope key)` };
    case 'minProperties':
      return { pointer: error.instancePath, detail: 'must not be empty' };
    default:
      return { pointer: error.instancePath, detail: describeSchemaError(error) };
  }
}

/** The most specific error: ajv reports a property's errors before the ones of its parents. */
function firstProblem(validate: ValidateFunction): { pointer: string; detail: string } {
  const errors = validate.errors ?? [];
  // A bad param name yields the inner pattern error too; the propertyNames one says which name.
  const named = errors.find((e) => e.keyword === 'propertyNames');
  if (named) return problem(named);
  const deepest = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0];
  return deepest ? problem(deepest) : { pointer: '', detail: 'is invalid' };
}

let fileValidator: ValidateFunction | undefined;
let effectValidator: ValidateFunction | undefined;

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
    if (!declared.has(value.$param as string)) {
      fail(`${pointer}/$param`, `unknown param '${String(value.$param)}' (declared: ${[...declared].join(', ') || 'none'})`);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) checkRefs(v, declared, `${pointer}/${k}`, fail);
  }
}

export class ScenarioDefinition {
  readonly description: string;
  /** The declared params: name -> JSON Schema with its default. */
  readonly params: Readonly<Record<string, JsonSchema>>;
  private readonly rules: RawRule[];
  private validators: { json: ValidateFunction; text: ValidateFunction } | undefined;

  private constructor(
    readonly name: string,
    readonly file: string,
    raw: RawScenario,
  ) {
    this.description = raw.description;
    this.params = raw.params ?? {};
    this.rules = raw.rules;
  }

  /** Parses and checks a file's JSON; throws ScenarioFileError naming the file and the path. */
  static parse(name: string, file: string, raw: unknown): ScenarioDefinition {
    const fail = (pointer: string, detail: string): never => {
      throw new ScenarioFileError(file, pointer || '/', detail);
    };
    fileValidator ??= compileSchema(FILE_SCHEMA);
    // A deep copy: ajv's defaults must never write into what the caller holds.
    const copy = structuredClone(raw);
    if (!fileValidator(copy)) {
      const { pointer, detail } = firstProblem(fileValidator);
      fail(pointer, detail);
    }
    const definition = new ScenarioDefinition(name, file, copy as RawScenario);
    definition.checkParams(fail);
    const declared = new Set(Object.keys(definition.params));
    definition.rules.forEach((rule, i) => checkRefs(rule.effect, declared, `/rules/${i}/effect`, fail));
    // Every param at its default: a file whose effects cannot work fails here, not at first use.
    try {
      definition.resolve({}, 'json');
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      const atDefault = error.param === undefined ? '' : ` (param '${error.param}' at its default ${JSON.stringify(definition.params[error.param]?.default)})`;
      fail(`/rules/${error.rule}/effect${error.pointer}`, `${error.message}${atDefault}`);
    }
    return definition;
  }

  private checkParams(fail: (pointer: string, detail: string) => never): void {
    for (const [param, schema] of Object.entries(this.params)) {
      // Alone, the default sits at a schema root, where ajv's strict mode refuses it.
      const { default: defaultValue, ...rest } = schema;
      let validate: ValidateFunction;
      try {
        validate = compileSchema(rest);
      } catch (error) {
        return fail(`/params/${param}`, `not a valid JSON Schema: ${(error as Error).message}`);
      }
      if (!validate(structuredClone(defaultValue))) {
        const { pointer, detail } = firstProblem(validate);
        fail(`/params/${param}/default`, `${pointer ? `${pointer} ` : ''}${detail}`);
      }
    }
  }

  /** Operation ids the rules name in `match.operations`, with their JSON pointers. */
  namedOperations(): Array<{ operationId: string; pointer: string }> {
    return this.rules.flatMap((rule, i) => (rule.match?.operations ?? []).map((operationId, j) => ({ operationId, pointer: `/rules/${i}/match/operations/${j}` })));
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
        const suspects = [refs.get(error.pointer), ...(error.pointer.startsWith('/deprecate') ? [refs.get('/deprecate/deprecated_at')] : [])];
        const param = suspects.find((name) => name !== undefined && name in given) ?? suspects.find((name) => name !== undefined);
        // At the defaults, the file itself is at fault: report the rule and the path.
        if (param === undefined || Object.keys(given).length === 0) throw Object.assign(error, { rule: i, param });
        throw new ScenarioParamsError({ [param]: [error.message] });
      }
    });
    return { params, rules };
  }

  private checkGivenParams(given: Record<string, unknown>, mode: 'json' | 'text'): Record<string, unknown> {
    this.validators ??= (() => {
      const schema: JsonSchema = { type: 'object', additionalProperties: false, properties: this.params };
      return { json: compileSchema(schema), text: compileQuerySchema(schema) };
    })();
    const params = structuredClone(given);
    const validate = this.validators[mode];
    if (validate(params)) return params;
    const errors: FieldErrors = {};
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
  effectValidator ??= compileSchema(EFFECT_SCHEMA);
  if (!effectValidator(effect)) {
    const { pointer, detail } = firstProblem(effectValidator);
    throw new RuleError(pointer, detail);
  }
  const raw = effect as {
    delay_ms?: number;
    error?: ErrorEffect;
    expire_key?: true;
    deprecate?: { deprecated_at: string; sunset: string; link: string };
    job?: JobOutcomeDecision;
  };
  // Both answer the request: one effect cannot give two answers.
  if (raw.error && raw.expire_key) throw new RuleError('/expire_key', "cannot be combined with 'error' in one effect (both answer the request)");
  const resolved: ResolvedEffect = {};
  if (raw.delay_ms !== undefined) resolved.delayMs = raw.delay_ms;
  if (raw.error) resolved.error = raw.error;
  if (raw.expire_key) resolved.expireKey = true;
  if (raw.job) resolved.job = raw.job;
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
