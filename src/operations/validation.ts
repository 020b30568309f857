/**
 * Request validation compiled once per process from the operation declarations (ajv). Query strings
 * are coerced (they arrive as text); bodies are not (JSON has types). Failures map onto spec §7.2:
 * - query: 400 `bad_request` / `parameter_unknown`, naming the parameter;
 * - body: 400 `parameter_unknown` (unknown or wrapped fields), 400 `parameter_missing`, or
 *   422 `validation_failed` with `errors` keyed by field for well-formed but invalid data.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { isInstant } from '../clock/virtual-clock.js';
import { ApiError, emptyFieldErrors, validationFailed, type FieldErrors } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import { requireHere } from './require-here.js';
import { splitCompile } from './split-schema.js';
import type { JsonSchema, OperationDef } from './types.js';

type AjvModule = typeof import('ajv');
type AddFormats = (ajv: Ajv) => Ajv;

let ajvModules: { Ajv: AjvModule['Ajv']; addFormats: AddFormats } | undefined;

/** ajv and ajv-formats, loaded at the first compile, not at start-up (see require-here.ts). */
function loadAjv(): { Ajv: AjvModule['Ajv']; addFormats: AddFormats } {
  return (ajvModules ??= requireAjv());
}

function requireAjv(): { Ajv: AjvModule['Ajv']; addFormats: AddFormats } {
  /* eslint-disable @typescript-eslint/no-require-imports -- literal calls the bundler resolves; see require-here.ts */
  const [ajv, formats] = (
    typeof require === 'function' ? [require('ajv'), require('ajv-formats')] : [requireHere('ajv'), requireHere('ajv-formats')]
  ) as [AjvModule, typeof addFormatsModule & { default?: typeof addFormatsModule }];
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { Ajv: ajv.Ajv, addFormats: formats.default ?? formats };
}

interface Checking {
  allErrors: boolean;
  useDefaults: boolean;
  /**
   * Whether each schema is first checked against the JSON Schema meta-schema. The first such check
   * compiles the meta-schema itself, ~35 ms in one turn (3/4 of a first compile): worth it for
   * schemas users write (scenario params), not for the sandbox's own declarations, which
   * test/operations/declarations.test.ts checks against the meta-schema instead.
   */
  validateSchema: boolean;
}

const REQUEST_CHECKING: Checking = { allErrors: true, useDefaults: true, validateSchema: true };

function createAjv(coerce: boolean, checking: Checking = REQUEST_CHECKING): Ajv {
  const { Ajv, addFormats } = loadAjv();
  const ajv = new Ajv({ strict: true, coerceTypes: coerce, allowUnionTypes: true, ...checking });
  addFormats(ajv);
  // Stricter than ajv-formats' date-time: an offset is required and the instant must exist.
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
  // Documentation keywords of OpenAPI that ajv's strict mode would otherwise refuse.
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'x-spec' });
  // OpenAPI's hint on `oneOf` unions (see `discriminatedUnion`); the `oneOf` decides. ajv's own
  // `discriminator` option would refuse the `mapping` generators need.
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
}

let queryAjv: Ajv | undefined;
let bodyAjv: Ajv | undefined;
let dataAjv: Ajv | undefined;
/** The sandbox's own schemas (operations, admin routes): compiled without the meta-schema check. */
const DECLARED: Checking = { ...REQUEST_CHECKING, validateSchema: false };
let declaredQueryAjv: Ajv | undefined;
let declaredBodyAjv: Ajv | undefined;

export interface OperationValidators {
  query?: ValidateFunction;
  params?: ValidateFunction;
  body?: ValidateFunction;
}

const compiled = new WeakMap<OperationDef, OperationValidators>();
/** The validators of an operation compiled so far, one part at a time (start-up's background steps). */
const partial = new WeakMap<OperationDef, OperationValidators>();

type Part = keyof OperationValidators;

/** The parts of an operation that have a schema to compile. */
function partsOf(op: OperationDef): Part[] {
  const parts: Part[] = [];
  // A query schema without properties admits no parameter at all: `validateQuery` without a
  // validator says exactly that, so such operations (GET /status) never need ajv.
  if (op.query && hasProperties(op.query)) parts.push('query');
  if (op.params) parts.push('params');
  if (op.body) parts.push('body');
  return parts;
}

/** Compiles one part's schema (once); a broken schema fails naming the operation. */
function compilePart(op: OperationDef, part: Part): void {
  let done = partial.get(op);
  if (!done) partial.set(op, (done = {}));
  if (done[part]) return;
  try {
    if (part === 'body') done.body = compileDeclaredSchema(op.body!);
    else done[part] = compileDeclaredQuerySchema((part === 'query' ? op.query : op.params)!);
  } catch (error) {
    throw new Error(`Invalid schema in operation ${op.operationId} (${op.method} ${op.path}): ${(error as Error).message}`);
  }
}

/** Compiles (once) the validators of an operation; a broken schema fails start-up naming the operation. */
export function validatorsFor(op: OperationDef): OperationValidators {
  const known = compiled.get(op);
  if (known) return known;
  for (const part of partsOf(op)) compilePart(op, part);
  const validators = partial.get(op) ?? {};
  partial.delete(op);
  compiled.set(op, validators);
  return validators;
}

/**
 * Start-up's background compile of an operation, one schema per step (a body schema can take tens
 * of ms under load: three in one turn were the longest steps of the warm-up); the last step (or the
 * only one, for an operation without schemas) makes the validators the operation's.
 */
export function validatorSteps(op: OperationDef): (() => void)[] {
  const parts = partsOf(op);
  if (parts.length === 0) return [() => void validatorsFor(op)];
  return parts.map((part, i) => () => {
    if (compiled.has(op)) return;
    if (i === parts.length - 1) validatorsFor(op);
    else compilePart(op, part);
  });
}

function hasProperties(schema: JsonSchema): boolean {
  return Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}).length > 0 || schema.additionalProperties !== false;
}

/** Whether an operation's validators are compiled already (start-up's background compile skips those). */
export function validatorsCompiled(op: OperationDef): boolean {
  return compiled.has(op);
}

/**
 * Loads ajv, then makes each instance the sandbox's own schemas compile with, if not done yet: the
 * first steps of the background work after start-up (src/warm-up.ts), one turn each (loading ajv,
 * the longest, ~15 ms).
 */
export const DECLARED_COMPILER_STEPS: readonly (() => void)[] = [
  () => void loadAjv(),
  () => void (declaredQueryAjv ??= createAjv(true, DECLARED)),
  () => void (declaredBodyAjv ??= createAjv(false, DECLARED)),
];

/**
 * One of the sandbox's own body schemas (an operation's, an admin route's), compiled without the
 * meta-schema check, and split where it is large (see `splitCompile`).
 */
export function compileDeclaredSchema(schema: JsonSchema): ValidateFunction {
  return splitCompile(schema, (part) => (declaredBodyAjv ??= createAjv(false, DECLARED)).compile(part));
}

/** One of the sandbox's own query (or path) schemas, coercing, compiled without the meta-schema check. */
export function compileDeclaredQuerySchema(schema: JsonSchema): ValidateFunction {
  return (declaredQueryAjv ??= createAjv(true, DECLARED)).compile(schema);
}

/** A schema compiled with the body (non-coercing) instance, checked against the meta-schema first: for users' schemas and tests. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  bodyAjv ??= createAjv(false);
  return bodyAjv.compile(schema);
}

/**
 * A schema compiled to check stored data (a snapshot's records) rather than a request: it stops at
 * the first error (a record's errors are never all wanted, and a 1 MiB array of wrong items would
 * make one error object per item) and fills no defaults (data sent back is taken as it is or refused).
 */
export function compileDataSchema(schema: JsonSchema): ValidateFunction {
  // The snapshot's record schemas are the sandbox's own: no meta-schema check.
  dataAjv ??= createAjv(false, { allErrors: false, useDefaults: false, validateSchema: false });
  return dataAjv.compile(schema);
}

/** A schema compiled with the coercing (query) instance, checked against the meta-schema first: for users' values that arrive as text. */
export function compileQuerySchema(schema: JsonSchema): ValidateFunction {
  queryAjv ??= createAjv(true);
  return queryAjv.compile(schema);
}

/** `/events/0/event_name` -> `events.0.event_name`; the root becomes the missing property's name. */
export function fieldName(error: ErrorObject): string {
  const base = error.instancePath.split('/').slice(1).join('.');
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    return base ? `${base}.${missing}` : missing;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return base ? `${base}.${extra}` : extra;
  }
  return base;
}

export function describeSchemaError(error: ErrorObject): string {
  switch (error.keyword) {
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'type':
      return `must be of type ${String(error.params.type).replace(',', ' or ')}`;
    case 'format':
      return `must be a valid ${String(error.params.format)}`;
    case 'pattern': {
      // Prefixed-id patterns (`^frm_…`) get a message that says what a raw id got wrong (spec §1).
      const prefix = /^\^([a-z]+_)/.exec(String(error.params.pattern))?.[1];
      return prefix ? `must be an id prefixed '${prefix}' (raw ids are not accepted)` : 'has an invalid format';
    }
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * What ajv's coercion would let through: a repeated scalar parameter (`?limit=5&limit=6` arrives as an
 * array) and integers written as `0x10`, `5e0`, ` 5` or `+5`, which `Number()` accepts. A query
 * integer is plain decimal digits, given once.
 */
function checkQueryScalars(schema: JsonSchema, query: Record<string, unknown>): void {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, value] of Object.entries(query)) {
    const property = properties[name];
    if (!property) continue;
    const types = ([] as unknown[]).concat(property.type);
    if (Array.isArray(value) && !types.includes('array')) {
      throw new ApiError('bad_request', { param: name, message: MESSAGES.invalidQuery(name, 'must be given only once') });
    }
    if (types.includes('integer') && typeof value === 'string' && !DECIMAL_INTEGER.test(value)) {
      throw new ApiError('bad_request', { param: name, message: MESSAGES.invalidQuery(name, 'must be an integer') });
    }
  }
}

export function validateQuery(validate: ValidateFunction | undefined, query: Record<string, unknown>): void {
  if (!validate) {
    const [first] = Object.keys(query);
    if (first !== undefined) throw new ApiError('parameter_unknown', { param: first, message: MESSAGES.unknownParameter(first) });
    return;
  }
  checkQueryScalars(validate.schema as JsonSchema, query);
  if (validate(query)) return;
  const errors = validate.errors ?? [];
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const name = fieldName(unknown);
    throw new ApiError('parameter_unknown', { param: name, message: MESSAGES.unknownParameter(name) });
  }
  const first = errors[0];
  const name = first ? fieldName(first) : '';
  throw new ApiError('bad_request', { param: name, message: MESSAGES.invalidQuery(name, first ? describeSchemaError(first) : 'invalid') });
}

export function validateBody(
  validate: ValidateFunction | undefined,
  body: Record<string, unknown>,
  declared: JsonSchema | undefined,
): void {
  if (!validate) {
    const [first] = Object.keys(body);
    if (first !== undefined) throw unknownField(first, body[first], declared);
    return;
  }
  if (validate(body)) return;
  const errors = validate.errors ?? [];
  const unknown = errors.find((e) => e.keyword === 'additionalProperties' && e.instancePath === '');
  if (unknown) {
    const name = fieldName(unknown);
    throw unknownField(name, body[name], declared);
  }
  const missing = errors.find((e) => e.keyword === 'required' && e.instancePath === '');
  if (missing) {
    const name = fieldName(missing);
    throw new ApiError('parameter_missing', { param: name, message: MESSAGES.missingParameter(name) });
  }
  throw validationFailed(fieldErrorsOf(errors));
}

function unknownField(name: string, value: unknown, declared: JsonSchema | undefined): ApiError {
  const properties = (declared?.properties ?? {}) as Record<string, unknown>;
  // A body wrapped under a resource key ({"api_key": {"name": …}}) is the mistake spec §7.2 names.
  const wrapped =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (Object.keys(value).some((k) => k in properties) || Object.keys(properties).length === 0 || Object.keys(value).length === 0);
  return new ApiError('parameter_unknown', {
    param: name,
    message: wrapped ? MESSAGES.wrappedBody(name) : MESSAGES.unknownParameter(name),
  });
}

/** Ajv's errors as the 422's failing fields, one message per field and meaning. */
function fieldErrorsOf(errors: ErrorObject[]): FieldErrors {
  const fields = emptyFieldErrors();
  for (const error of errors) {
    // `if/then` and `anyOf` wrappers repeat what their inner errors already say.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const name = fieldName(error) || 'body';
    const messages = (fields[name] ??= []);
    // Each branch of a union of typed strings (`anyOf: [{type: string, format: ipv4}, …]`) says
    // "must be of type string" for a number; the client is told once.
    const message = describeSchemaError(error);
    if (!messages.includes(message)) messages.push(message);
  }
  return fields;
}
