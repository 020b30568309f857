/**
 * Active scenarios and how they act on requests (contract §3.5). Built with each world
 * (src/sandbox/world.ts), so reset clears every activation (and the boot scenarios come back).
 *
 * - An activation is a scenario with params, a scope (account, API key, operation: each narrows it)
 *   and an optional `times`. The newest activation comes first (msw's `use()`: overrides first);
 *   a scenario asked for by the request itself (`Prefer: scenario=…`) comes before all of them.
 * - For each request the engine lists the (activation, rule) pairs that match it. Each part of an
 *   effect (delay, deprecation, the answer, the job outcome) comes from the first pair that sets it,
 *   so a "slow" scenario and a "fail" scenario combine, and the newest "fail" wins over an older one.
 * - An activation is counted once per request it acted on (a part of its effect was used), at that
 *   moment and synchronously, so `times` is exact however many requests run at once. A job part acts
 *   when the request creates a job: a crawl refused with 422 creates none and uses up nothing.
 * - Activations are indexed by scope (ScopeIndex), so a request looks only at those that can match
 *   it, and one used up, deleted or cleared leaves the index and the list at once: thousands of
 *   activations of other tenants cost a request nothing.
 */
import { MESSAGES } from '../errors/messages.js';
import { isoTimestamp, type VirtualClock } from '../clock/virtual-clock.js';
import type { OperationDef } from '../operations/types.js';
import type { Prng } from '../random.js';
import type { Store } from '../store/store.js';
import type { TwistOffer, WebhookTwist } from '../webhooks/twists.js';
import {
  Activation,
  ruleMatches,
  ScenarioActivationError,
  type ActivationInput,
  type ActiveScenarioView,
  type RequestFacts,
} from './activation.js';
import type { ScenarioCatalog } from './catalog.js';
import type { ScenarioDefinition } from './definition.js';
import type { ResolvedRule } from './effect.js';
import { ScenarioParamsError } from './params.js';
import { RequestScenarios, type ActivationCounter, type Candidate } from './request-plan.js';
import { ScopeIndex } from './scope-index.js';
import { webhookOffers } from './webhook-offers.js';

// The engine's public surface, named where callers have always found it.
export {
  Activation,
  ruleMatches,
  ScenarioActivationError,
  type ActivationInput,
  type ActiveScenarioView,
  type RequestFacts,
} from './activation.js';
export { RequestScenarios, type RequestPlan } from './request-plan.js';

export interface ScenarioEngineDeps {
  catalog: ScenarioCatalog;
  operations: readonly OperationDef[];
  store: Store;
  clock: VirtualClock;
  /**
   * A seeded stream of `probability` draws named `name` (derived from the seed and the name): streams
   * of their own, so drawing never moves the id streams, and one per activation and account.
   */
  chanceStream: (name: string) => Prng;
}

export class ScenarioEngine implements ActivationCounter {
  /** Every live activation by id, oldest first (what the admin API lists). */
  private readonly active = new Map<string, Activation>();
  /** The same activations by scope: what requests look at. */
  private readonly index = new ScopeIndex();
  private counter = 0;
  /** Per owner (account id, or `*` for activations scoped to no account), how many it has had: `chanceName`. */
  private readonly ordinals = new Map<string, number>();
  private readonly operations: ReadonlyMap<string, OperationDef>;

  constructor(private readonly deps: ScenarioEngineDeps) {
    this.operations = new Map(deps.operations.map((op) => [op.operationId, op]));
  }

  available(): Array<{ name: string; description: string; params: Record<string, unknown> }> {
    return [...this.deps.catalog.values()].map((d) => ({ name: d.name, description: d.description, params: structuredClone(d.params) }));
  }

  list(): ActiveScenarioView[] {
    return [...this.active.values()].map((activation) => activation.view());
  }

  get(id: string): ActiveScenarioView | undefined {
    return this.active.get(id)?.view();
  }

  /** Checks and activates; throws ScenarioActivationError. `text` params are coerced (boot specs). */
  activate(input: ActivationInput, mode: 'json' | 'text' = 'json'): ActiveScenarioView {
    const definition = this.definition(input.name);
    const { params, rules } = resolveParams(definition, input.params ?? {}, mode, 'params.');
    const scope = this.checkScope(input, definition.name, rules);
    const probability = input.probability ?? 1;
    if (!(probability >= 0 && probability <= 1))
      throw new ScenarioActivationError({ probability: [`must be a number from 0 to 1, got ${String(probability)}`] });
    this.counter += 1;
    const id = `scn_${this.counter.toString().padStart(6, '0')}`;
    const owner = scope.accountId ?? (scope.apiKeyId === null ? null : this.deps.store.findKeyById(scope.apiKeyId)?.account.id) ?? '*';
    const ordinal = (this.ordinals.get(owner) ?? 0) + 1;
    this.ordinals.set(owner, ordinal);
    const activation = new Activation(
      id,
      definition,
      scope,
      input.times ?? null,
      params,
      rules,
      isoTimestamp(this.deps.clock.now()),
      this.counter,
      probability,
      JSON.stringify([owner, ordinal]),
    );
    this.active.set(id, activation);
    this.index.add(activation);
    return activation.view();
  }

  deactivate(id: string): ActiveScenarioView | undefined {
    const activation = this.active.get(id);
    if (!activation) return undefined;
    this.retire(activation);
    return activation.view();
  }

  /** Deactivates every activation; returns how many there were. */
  clear(): number {
    const count = this.active.size;
    for (const activation of [...this.active.values()]) this.retire(activation);
    return count;
  }

  /** Deactivates the activations scoped to the account or one of its keys (account reset and delete). */
  retireScoped(accountId: string, keyIds: ReadonlySet<string>): number {
    let count = 0;
    for (const activation of [...this.active.values()]) {
      const { accountId: account, apiKeyId } = activation.scope;
      if (account !== accountId && (apiKeyId === null || !keyIds.has(apiKeyId))) continue;
      this.retire(activation);
      count += 1;
    }
    return count;
  }

  /**
   * The account's chance starts over (account reset and delete, contract §4.1): its activations count
   * from one again, and every activation's draws for its requests restart from their beginning.
   */
  restartChance(accountId: string): void {
    this.ordinals.delete(accountId);
    for (const activation of this.active.values()) activation.streams?.delete(accountId);
  }

  /** The scenario a request asks for with `Prefer: scenario=<name>`; it lives for that request only. */
  requested(name: string, params: Record<string, unknown>): Activation {
    const definition = this.definition(name);
    const resolved = resolveParams(definition, params, 'text', '');
    return new Activation(
      `prefer:${name}`,
      definition,
      { accountId: null, apiKeyId: null, operationId: null },
      null,
      resolved.params,
      resolved.rules,
      '',
      0,
    );
  }

  /** Whether any scenario is active: when none is and none is asked for, requests skip the engine. */
  hasActive(): boolean {
    return this.active.size > 0;
  }

  /** The matching (activation, rule) pairs of a request, in precedence order: requested, then newest first. */
  forRequest(facts: RequestFacts, requested?: Activation): RequestScenarios {
    const candidates: Candidate[] = [];
    const ordered = this.index.matching(facts);
    if (requested) ordered.unshift(requested);
    for (const activation of ordered) {
      for (const rule of activation.rules) if (ruleMatches(rule, facts.operation)) candidates.push({ activation, rule });
    }
    return new RequestScenarios(this, candidates, requested, facts.accountId);
  }

  /**
   * True when an active scenario deprecates every request of the operation: not narrowed to an
   * account or key, since `/openapi.json` is one document for every caller. The deprecation
   * registry asks this, so `sandbox.deprecations.isDeprecated` (and the OpenAPI document) see it.
   */
  deprecatesEveryRequest(operationId: string): boolean {
    const operation = this.operations.get(operationId);
    if (!operation) return false;
    for (const activation of this.index.forEveryCaller(operationId)) {
      if (activation.rules.some((rule) => rule.effect.deprecate !== undefined && ruleMatches(rule, operation))) return true;
    }
    return false;
  }

  /**
   * True when an active scenario deprecates the operation for every request of this caller (an
   * account and one of its keys): what `/openapi.json` flags for that key (contract §5.4). The same
   * activations as a request with that key would match, so the document and the headers agree.
   */
  deprecatesForCaller(operationId: string, caller: { accountId: string; apiKeyId: string }): boolean {
    const operation = this.operations.get(operationId);
    if (!operation) return false;
    for (const activation of this.index.matching({ operation, ...caller })) {
      if (activation.rules.some((rule) => rule.effect.deprecate !== undefined && ruleMatches(rule, operation))) return true;
    }
    return false;
  }

  /** The webhook hub's query (src/webhooks/twists.ts): the offers of `twist` for the account's webhooks now, newest first. */
  webhookTwists(accountId: string, twist: WebhookTwist): TwistOffer[] {
    return webhookOffers(this.active.values(), accountId, twist, this.operations, this);
  }

  /**
   * Whether the activation acts on this request (or event) of `accountId`: always at probability 1
   * (no draw, so activations without chance never make a stream), never at 0, else the next draw of
   * the activation's stream for that account.
   */
  chance(activation: Activation, accountId: string | null): boolean {
    if (activation.probability >= 1) return true;
    if (activation.probability <= 0) return false;
    const requester = accountId ?? '-';
    const streams = (activation.streams ??= new Map<string, Prng>());
    let stream = streams.get(requester);
    if (!stream) streams.set(requester, (stream = this.deps.chanceStream(`${activation.chanceName}:${JSON.stringify(requester)}`)));
    return stream.next() < activation.probability;
  }

  /** Counts one request (or job) against the activation's `times`; the last one retires it. */
  consume(activation: Activation): void {
    if (activation.remaining === null) return;
    activation.remaining -= 1;
    if (activation.remaining <= 0) this.retire(activation);
  }

  private retire(activation: Activation): void {
    activation.live = false;
    this.active.delete(activation.id);
    this.index.remove(activation);
  }

  private definition(name: string): ScenarioDefinition {
    const definition = this.deps.catalog.get(name);
    if (!definition) {
      throw new ScenarioActivationError({ name: [`unknown scenario '${name}' (available: ${[...this.deps.catalog.keys()].join(', ')})`] });
    }
    return definition;
  }

  private checkScope(input: ActivationInput, name: string, rules: readonly ResolvedRule[]): Activation['scope'] {
    const accountId = input.account_id ?? null;
    const apiKeyId = input.api_key_id ?? null;
    const operationId = input.operation_id ?? null;
    if (operationId !== null) {
      const operation = this.operations.get(operationId);
      if (!operation)
        throw new ScenarioActivationError({
          operation_id: [`unknown operation '${operationId}' (known operations: ${[...this.operations.keys()].join(', ')})`],
        });
      if (!rules.some((rule) => ruleMatches(rule, operation))) {
        throw new ScenarioActivationError({
          operation_id: [`no rule of '${name}' matches operation '${operationId}' (${operation.method})`],
        });
      }
    }
    if (accountId !== null && !this.deps.store.forAccount(accountId))
      throw new ScenarioActivationError({ account_id: [MESSAGES.noSuchAccount(accountId)] }, true);
    if (apiKeyId !== null) {
      const found = this.deps.store.findKeyById(apiKeyId);
      if (!found) throw new ScenarioActivationError({ api_key_id: [`No such API key: '${apiKeyId}'.`] }, true);
      if (accountId !== null && found.account.id !== accountId) {
        throw new ScenarioActivationError({
          api_key_id: [`belongs to account '${found.account.id}', not '${accountId}': the scope could never match`],
        });
      }
    }
    return { accountId, apiKeyId, operationId };
  }
}

function resolveParams(definition: ScenarioDefinition, given: Record<string, unknown>, mode: 'json' | 'text', prefix: string) {
  try {
    return definition.resolve(given, mode);
  } catch (error) {
    if (!(error instanceof ScenarioParamsError)) throw error;
    throw new ScenarioActivationError(
      Object.fromEntries(Object.entries(error.errors).map(([name, messages]) => [`${prefix}${name}`, messages])),
    );
  }
}
