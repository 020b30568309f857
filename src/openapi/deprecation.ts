/**
 * Where the OpenAPI document learns which operations are deprecated (spec §9.2). The document is
 * built per request state, so anything that can deprecate an operation at run time (configuration,
 * the `deprecated-operations` scenario) only has to answer this predicate: `createApp` passes
 * `deprecationPredicate(sandbox)`, and the document cache rebuilds when the answer changes.
 *
 * Today the only source is the declaration's own `deprecated` flag. The deprecation registry of the
 * protocol work (and scenarios) plugs in here, by consulting the sandbox.
 */
import type { OperationDef } from '../operations/types.js';
import type { Sandbox } from '../sandbox.js';

/** Which operations are deprecated right now, by operation id. */
export type DeprecationPredicate = (operationId: string) => boolean;

export function declaredDeprecation(operations: readonly OperationDef[]): DeprecationPredicate {
  const deprecated = new Set(operations.filter((op) => op.deprecated === true).map((op) => op.operationId));
  return (operationId) => deprecated.has(operationId);
}

/** The sandbox's view, read at request time (the sandbox is the mutable world; reset rebuilds it). */
export function deprecationPredicate(_sandbox: Sandbox, operations: readonly OperationDef[]): DeprecationPredicate {
  return declaredDeprecation(operations);
}
