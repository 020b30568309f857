/**
 * Where the OpenAPI document learns which operations are deprecated (spec §9.2): the sandbox's
 * deprecation registry (fixture, `deprecations` option, and whatever scenarios add at run time), the
 * same one the deprecation middleware reads for the headers, so document and responses agree. It
 * is asked on every use (the sandbox is the mutable world; reset rebuilds the registry), and the
 * document cache rebuilds when the answer changes.
 */
import type { Sandbox } from '../sandbox/sandbox.js';

/** Which operations are deprecated right now, by operation id. */
export type DeprecationPredicate = (operationId: string) => boolean;

export const NOTHING_DEPRECATED: DeprecationPredicate = () => false;

export function deprecationPredicate(sandbox: Sandbox): DeprecationPredicate {
  return (operationId) => sandbox.world.deprecations.isDeprecated(operationId);
}
