/**
 * Where the OpenAPI document learns which operations are deprecated (spec §9.2): the sandbox's
 * deprecation registry (fixture, `deprecations` option, and whatever scenarios add at run time), the
 * same one the deprecation middleware reads for the headers, so document and responses agree. It
 * is asked on every use (the sandbox is the mutable world; reset rebuilds the registry), and the
 * document cache rebuilds when the answer changes.
 */
import type { Sandbox } from '../sandbox/sandbox.js';
import type { World } from '../sandbox/world.js';

/** Which operations are deprecated right now, by operation id. */
export type DeprecationPredicate = (operationId: string) => boolean;

export const NOTHING_DEPRECATED: DeprecationPredicate = () => false;

export function deprecationPredicate(sandbox: Sandbox): DeprecationPredicate {
  return (operationId) => sandbox.world.deprecations.isDeprecated(operationId);
}

/**
 * What one caller's document flags (contract §5.4): the sandbox-wide deprecations, and the
 * operations an active scenario deprecates for requests of this account and key (scoped to the
 * account, to the key, or to no one), as the scenario middleware would announce them in headers.
 */
export function callerDeprecationPredicate(world: World, caller: { accountId: string; apiKeyId: string }): DeprecationPredicate {
  return (operationId) => world.deprecations.isDeprecated(operationId) || world.scenarios.deprecatesForCaller(operationId, caller);
}
