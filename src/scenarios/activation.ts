/**
 * One activation of a scenario (contract §3.5): a scenario with params, a scope (account, API key,
 * operation: each narrows it), an optional `times` and a chance; what the admin API shows of it and
 * why one is refused.
 */
import type { FieldErrors } from '../errors/api-error.js';
import type { OperationDef } from '../operations/types.js';
import type { Prng } from '../random.js';
import type { ScenarioDefinition } from './definition.js';
import type { ResolvedRule } from './effect.js';

export interface ActivationInput {
  name: string;
  account_id?: string | null;
  api_key_id?: string | null;
  operation_id?: string | null;
  times?: number | null;
  /** The chance (0–1) it acts on each matching request, drawn from the seed (contract §4.2); default 1. */
  probability?: number | null;
  params?: Record<string, unknown>;
}

/** An activation as the admin API shows it (contract §3.5 ActiveScenario, plus `times` and `activated_at`). */
export interface ActiveScenarioView {
  id: string;
  name: string;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  times: number | null;
  remaining: number | null;
  probability: number;
  params: Record<string, unknown>;
  activated_at: string;
}

/** An activation refused: `errors` by field (`name`, `params.retry_after`…); `missing` for unknown ids. */
export class ScenarioActivationError extends Error {
  constructor(
    readonly errors: FieldErrors,
    readonly missing = false,
  ) {
    super(
      Object.entries(errors)
        .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
        .join('; '),
    );
    this.name = 'ScenarioActivationError';
  }
}

/** Who sent a request and to which operation: all a scope or a rule can match on. */
export interface RequestFacts {
  operation: OperationDef;
  accountId: string | null;
  apiKeyId: string | null;
}

/** One activation: admin-made (listed, counted) or requested by one request's Prefer header. */
export class Activation {
  remaining: number | null;
  /** False once deleted, cleared or used up. */
  live = true;

  constructor(
    readonly id: string,
    readonly definition: ScenarioDefinition,
    readonly scope: { accountId: string | null; apiKeyId: string | null; operationId: string | null },
    readonly times: number | null,
    readonly params: Record<string, unknown>,
    readonly rules: readonly ResolvedRule[],
    readonly activatedAt: string,
    /** Activation order (1, 2, …): the newer acts first. 0 for a requested one, which is not indexed. */
    readonly seq: number,
    /** The chance it acts on a matching request; 1 for a requested one (Prefer always acts). */
    readonly probability = 1,
    /**
     * What its chance streams are derived from with the seed: its owner (the account it is scoped to,
     * directly or through its key; `*` for none) and its place among that owner's activations. Not
     * its id, which counts every tenant's activations: another worker activating first must not change
     * this one's draws.
     */
    readonly chanceName = '',
  ) {
    this.remaining = times;
  }

  /**
   * Its `probability` draws, one seeded stream per requesting account (`-` for requests without a
   * known key), made at the first draw: one account's traffic never moves another's choices, and an
   * account reset starts its own over (ScenarioEngine.restartChance). Made at the first draw: most
   * activations (and every `Prefer` one) never draw.
   */
  streams: Map<string, Prng> | undefined;

  inScope(facts: RequestFacts): boolean {
    const { accountId, apiKeyId, operationId } = this.scope;
    return (
      (accountId === null || accountId === facts.accountId) &&
      (apiKeyId === null || apiKeyId === facts.apiKeyId) &&
      (operationId === null || operationId === facts.operation.operationId)
    );
  }

  view(): ActiveScenarioView {
    return {
      id: this.id,
      name: this.definition.name,
      account_id: this.scope.accountId,
      api_key_id: this.scope.apiKeyId,
      operation_id: this.scope.operationId,
      times: this.times,
      remaining: this.remaining,
      probability: this.probability,
      params: structuredClone(this.params),
      activated_at: this.activatedAt,
    };
  }
}

export function ruleMatches(rule: ResolvedRule, operation: Pick<OperationDef, 'operationId' | 'method'>): boolean {
  return (!rule.operations || rule.operations.has(operation.operationId)) && (!rule.methods || rule.methods.has(operation.method));
}
