/**
 * A small structural checker for scenario files: the file's own shape is fixed and simple, and
 * checking it by hand keeps ajv (whose first compile is most of a cold start) out of start-up.
 * The JSON Schemas users write for params are still checked by ajv, when first used.
 *
 * `check` returns the first problem, depth first, as a JSON pointer and a message in the words
 * the fixture errors use ("unknown field 'x'", "missing field 'x'", "must be <= 30000").
 */
export type Shape =
  /** `open`: fields other than `fields` are allowed (and not checked). */
  | { kind: 'object'; fields: Record<string, Shape>; required?: readonly string[]; nonEmpty?: boolean; open?: boolean }
  /** An object used as a map: any keys that pass `key`, each value of shape `value`. */
  | { kind: 'map'; key: (name: string) => string | undefined; value: Shape }
  | { kind: 'array'; items: Shape; minItems?: number; unique?: boolean }
  | { kind: 'integer' | 'number'; min?: number; max?: number; above?: number }
  | { kind: 'string'; minLength?: number; maxLength?: number; pattern?: RegExp }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'true' }
  | { kind: 'any' };

export interface Problem {
  pointer: string;
  detail: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function checkNumber(value: unknown, shape: Extract<Shape, { kind: 'integer' | 'number' }>): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || (shape.kind === 'integer' && !Number.isInteger(value))) {
    return `must be of type ${shape.kind}`;
  }
  if (shape.min !== undefined && value < shape.min) return `must be >= ${shape.min}`;
  if (shape.above !== undefined && value <= shape.above) return `must be > ${shape.above}`;
  if (shape.max !== undefined && value > shape.max) return `must be <= ${shape.max}`;
  return undefined;
}

function checkString(value: unknown, shape: Extract<Shape, { kind: 'string' }>): string | undefined {
  if (typeof value !== 'string') return 'must be of type string';
  if (shape.minLength !== undefined && value.length < shape.minLength) return `must NOT have fewer than ${shape.minLength} characters`;
  if (shape.maxLength !== undefined && value.length > shape.maxLength) return `must NOT have more than ${shape.maxLength} characters`;
  if (shape.pattern && !shape.pattern.test(value)) return `must match ${shape.pattern.source}`;
  return undefined;
}

export function check(value: unknown, shape: Shape, pointer = ''): Problem | undefined {
  const here = (detail: string | undefined) => (detail === undefined ? undefined : { pointer, detail });
  switch (shape.kind) {
    case 'any':
      return undefined;
    case 'true':
      return here(value === true ? undefined : 'must be true');
    case 'enum':
      return here(typeof value === 'string' && shape.values.includes(value) ? undefined : `must be one of: ${shape.values.join(', ')}`);
    case 'integer':
    case 'number':
      return here(checkNumber(value, shape));
    case 'string':
      return here(checkString(value, shape));
    case 'array': {
      if (!Array.isArray(value)) return here(`must be of type array, got ${typeName(value)}`);
      if (shape.minItems !== undefined && value.length < shape.minItems)
        return here(`must have at least ${shape.minItems} item${shape.minItems === 1 ? '' : 's'}`);
      for (const [i, item] of value.entries()) {
        const problem = check(item, shape.items, `${pointer}/${i}`);
        if (problem) return problem;
        if (shape.unique && value.indexOf(item) !== i) return { pointer: `${pointer}/${i}`, detail: `is listed twice` };
      }
      return undefined;
    }
    case 'map': {
      if (!isObject(value)) return here(`must be of type object, got ${typeName(value)}`);
      for (const [name, item] of Object.entries(value)) {
        const bad = shape.key(name);
        if (bad) return here(bad);
        const problem = check(item, shape.value, `${pointer}/${name}`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'object': {
      if (!isObject(value)) return here(`must be of type object, got ${typeName(value)}`);
      const unknown = shape.open ? undefined : Object.keys(value).find((name) => !(name in shape.fields));
      if (unknown !== undefined) return here(`unknown field '${unknown}'`);
      const missing = (shape.required ?? []).find((name) => value[name] === undefined);
      if (missing !== undefined) return here(`missing field '${missing}'`);
      if (shape.nonEmpty && Object.keys(value).length === 0) return here('must not be empty');
      for (const [name, field] of Object.entries(shape.fields)) {
        if (value[name] === undefined) continue;
        const problem = check(value[name], field, `${pointer}/${name}`);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}
