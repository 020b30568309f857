/**
 * Large object schemas compiled in parts: the rest of the schema now, each large member the first
 * time a body has it. Used for the sandbox's own body schemas (src/operations/validation.ts).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './types.js';

/**
 * An object schema larger than this (as JSON) has its largest members compiled apart, each when a
 * body first has it.
 * `POST /__admin/accounts` declares `template` and `pinned` (~12 KB together): compiled whole, its
 * validator took ~6 times a small route's, in one turn, even for `{"plan": "paid"}`.
 */
const SPLIT_BYTES = 2048;

/** The parts a split validator compiles on first use. */
const LATER_PARTS = Symbol('later parts');
type Later = () => ValidateFunction;
type SplitValidate = ValidateFunction & { [LATER_PARTS]?: Later[] };

/** The parts of `validate` not compiled yet (what a body with those members would compile): for tests. */
export function uncompiledParts(validate: ValidateFunction): Later[] {
  return (validate as SplitValidate)[LATER_PARTS]?.filter((part) => !compiledParts.has(part)) ?? [];
}
const compiledParts = new WeakSet<Later>();

/**
 * The members of an object schema over SPLIT_BYTES to compile apart: the largest first, until what
 * is left is within SPLIT_BYTES (`pinned`, ~8 KB, is many lists of ~1 KB each: split, each list apart).
 */
/**
 * Keywords a member compiled apart may not carry at its top: its stand-in (`{type}`) would lose
 * them. A `default` is filled by a whole schema when the member is absent, and these others apply
 * whatever the value's type, so a whole schema reports them beside a type error the split one stops
 * at. A member with any of them is compiled with the rest.
 */
const KEPT_WHOLE = ['default', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref'];

function splittable(member: JsonSchema): boolean {
  return KEPT_WHOLE.every((keyword) => !(keyword in member));
}

function largestMembers(schema: JsonSchema): [string, JsonSchema][] {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties) return [];
  let left = JSON.stringify(schema).length;
  if (left <= SPLIT_BYTES) return [];
  const bySize = Object.entries(properties)
    .filter(([, member]) => splittable(member))
    .map(([name, member]) => ({ name, member, bytes: JSON.stringify(member).length }))
    .sort((a, b) => b.bytes - a.bytes);
  const apart: [string, JsonSchema][] = [];
  for (const { name, member, bytes } of bySize) {
    // A member this small costs about what its reduced stand-in does.
    if (left <= SPLIT_BYTES || bytes < 256) break;
    apart.push([name, member]);
    left -= bytes;
  }
  return apart;
}

/**
 * Compiles an object schema whose large members are validated apart: the rest compiles now with
 * each large member reduced to its `type`; a large member's own validator (split the same way) is
 * compiled the first time a body has it, and its errors are reported at its path, as a whole
 * schema's would be (same keywords, same paths: the 400/422 a body gets is unchanged, the failing
 * members listed in declaration order). A body without the member never pays for its schema.
 */
export function splitCompile(schema: JsonSchema, compile: (schema: JsonSchema) => ValidateFunction): ValidateFunction {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const large = largestMembers(schema);
  if (large.length === 0) return compile(schema);
  const reduced = Object.fromEntries(large.map(([name, member]) => [name, member.type === undefined ? {} : { type: member.type }]));
  const outer = compile({ ...schema, properties: { ...properties, ...reduced } });
  const parts = large.map(([name, member]) => {
    let validate: ValidateFunction | undefined;
    const later: Later = () => {
      if (!validate) {
        validate = splitCompile(member, compile);
        compiledParts.add(later);
      }
      return validate;
    };
    return { name, later };
  });
  const names = Object.keys(properties ?? {});
  const split = ((data: unknown): boolean => {
    let valid = outer(data);
    const errors = [...(outer.errors ?? [])];
    const body = data as Record<string, unknown>;
    for (const { name, later } of parts) {
      if (body === null || typeof body !== 'object' || body[name] === undefined) continue;
      // A member of the wrong type is already reported by the outer validator, as the whole schema would.
      if (errors.some((error) => error.instancePath === `/${name}` && error.keyword === 'type')) continue;
      const validate = later();
      if (validate(body[name])) continue;
      valid = false;
      for (const error of validate.errors ?? []) errors.push({ ...error, instancePath: `/${name}${error.instancePath}` });
    }
    // In declaration order, as one compiled schema lists them.
    const order = (error: ErrorObject) => names.indexOf(error.instancePath.split('/')[1] ?? '');
    split.errors = valid ? null : errors.sort((a, b) => order(a) - order(b));
    return valid;
  }) as SplitValidate;
  split.schema = schema;
  split[LATER_PARTS] = parts.map((part) => part.later);
  return split;
}
