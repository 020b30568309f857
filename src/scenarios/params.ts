/**
 * A scenario's params (scenarios/README.md): their names, `{"$param": name}` references inside
 * effects, filling them in, and the errors of params refused at activation.
 */
import type { ValidateFunction } from 'ajv';
import type { FieldErrors } from '../errors/api-error.js';
import { describeSchemaError } from '../operations/validation.js';
import type { Problem } from './shape.js';

/** Names that scope an activation; a param may not take one (boot specs and Prefer share one list). */
export const SCOPE_KEYS = ['account_id', 'api_key_id', 'operation_id', 'times'] as const;
/** Names an activation takes beside its scope and params (contract §4.2); not a param name either. */
export const ACTIVATION_KEYS = [...SCOPE_KEYS, 'probability'] as const;

const PARAM_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function paramName(name: string): string | undefined {
  if (PARAM_NAME.test(name) && !([...ACTIVATION_KEYS, 'name'] as string[]).includes(name)) return undefined;
  return `invalid name '${name}' (lowercase letters, digits and _, not a scope key)`;
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
export function ajvProblem(validate: ValidateFunction): Problem {
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
export function substitute(value: unknown, params: Record<string, unknown>, pointer: string, refs: Map<string, string>): unknown {
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
export function checkRefs(
  value: unknown,
  declared: ReadonlySet<string>,
  pointer: string,
  fail: (pointer: string, detail: string) => never,
): void {
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
