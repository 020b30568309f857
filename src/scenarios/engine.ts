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
import { isoTimestamp, type VirtualClock } from '../clock/virtual-clock.js';
import type { FieldErrors } from '../errors/api-error.js';
import { formatWord } from '../protocol/prefer.js';
import type { JobOutcomeDecision, JobOutcomeRule, JobScenarioSource } from '../jobs/outcome.js';
import type { OperationDef } from '../operations/types.js';
import type { Prng } from '../random.js';
import type { Store } from '../store/store.js';
import type { ScenarioCatalog } from './catalog.js';
import { ScenarioParamsError, type ErrorEffect, type ResolvedEffect, type ResolvedRule, type ScenarioDefinition } from './definition.js';
import type { FaultEffect } from './fault-effect.js';
import type { WebhookTwist } from './webhook-effect.js';

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

/** What the scenarios do to one request before it reaches the operation. */
export interface RequestPlan {
  delayMs?: number;
  deprecate?: NonNullable<ResolvedEffect['deprecate']>;
  /** The scenario's answer in place of the operation's. */
  answer?: { error: ErrorEffect } | { expireKey: true };
  /** The answer lost on the way (before the operation runs, or after). */
  fault?: FaultEffect;
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

interface Candidate {
  activation: Activation;
  rule: ResolvedRule;
}

/** The scenarios matching one request, and which of them acted on it. */
export class RequestScenarios implements JobScenarioSource {
  private readonly applied: Activation[] = [];
  /** Activations whose draw said "not this request": none of their parts act on it, jobs included. */
  private readonly declined = new Set<Activation>();

  constructor(
    private readonly engine: ScenarioEngine,
    private readonly candidates: readonly Candidate[],
    private readonly preferred: Activation | undefined,
    /** The requesting account (null without a known key): whose chance streams it draws from. */
    private readonly accountId: string | null,
  ) {}

  /** Picks each part from the first matching rule that sets it and counts the activations used. */
  plan(hasApiKey: boolean): RequestPlan {
    const plan: RequestPlan = {};
    const drawn = new Set<Activation>();
    for (const { activation, rule } of this.candidates) {
      // One draw per activation and request, in precedence order, only for requests in its scope.
      if (!drawn.has(activation)) {
        drawn.add(activation);
        if (!this.engine.chance(activation, this.accountId)) this.declined.add(activation);
      }
      if (this.declined.has(activation)) continue;
      const effect = rule.effect;
      let used = false;
      if (effect.delayMs !== undefined && plan.delayMs === undefined) {
        plan.delayMs = effect.delayMs;
        used = true;
      }
      if (effect.deprecate && !plan.deprecate) {
        plan.deprecate = effect.deprecate;
        used = true;
      }
      if (!plan.answer && effect.error) {
        plan.answer = { error: effect.error };
        used = true;
      } else if (!plan.answer && effect.expireKey && hasApiKey) {
        // Only a request made with an API key has a key to expire; others are refused by auth anyway.
        plan.answer = { expireKey: true };
        used = true;
      }
      if (effect.fault && !plan.fault) {
        plan.fault = effect.fault;
        used = true;
      }
      if (used) this.use(activation);
    }
    return plan;
  }

  /**
   * Asked when the request creates a job (the engine's job outcome rule). An activation used up or
   * deleted since the request began no longer acts, unless this request was already counted for it.
   */
  jobDecision(): JobOutcomeDecision | undefined {
    const merged: Record<string, unknown> = {};
    for (const { activation, rule } of this.candidates) {
      const job = rule.effect.job;
      if (!job || this.declined.has(activation) || !(activation.live || this.applied.includes(activation))) continue;
      let used = false;
      for (const [key, value] of Object.entries(job)) {
        if (merged[key] === undefined && value !== undefined) {
          merged[key] = value;
          used = true;
        }
      }
      if (used) this.use(activation);
    }
    return Object.keys(merged).length > 0 ? merged : undefined;
  }

  /** Ids of the activations that acted, in order; a requested one is `prefer:<name>`. */
  scenarioIds(): string[] {
    return this.applied.map((activation) => activation.id);
  }

  /** Names of the scenarios that acted, in order (coverage counts by name, contract §5.2). */
  scenarioNames(): string[] {
    return this.applied.map((activation) => activation.definition.name);
  }

  /** The `Preference-Applied` value when the requested scenario acted (RFC 7240 §3). */
  preferenceApplied(): string | undefined {
    const preferred = this.preferred;
    return preferred && this.applied.includes(preferred) ? `scenario=${formatWord(preferred.definition.name)}` : undefined;
  }

  private use(activation: Activation): void {
    if (this.applied.includes(activation)) return;
    this.applied.push(activation);
    this.engine.consume(activation);
  }
}

/** Activations of one scope value, oldest first (a Map keeps insertion order), by id. */
type Bucket = Map<string, Activation>;

/**
 * Activations by the narrowest part of their scope: the API key, else the account, else the
 * operation, else none (global). A request can only be matched by activations in its key's, its
 * account's and its operation's buckets and the global one, so it looks at those and nothing else;
 * `inScope` then checks the rest of each one's scope (an account-scoped one may name an operation).
 */
class ScopeIndex {
  private readonly byKey = new Map<string, Bucket>();
  private readonly byAccount = new Map<string, Bucket>();
  private readonly byOperation = new Map<string, Bucket>();
  private readonly global: Bucket = new Map();

  add(activation: Activation): void {
    const [buckets, value] = this.placeOf(activation);
    if (!buckets) {
      this.global.set(activation.id, activation);
      return;
    }
    let bucket = buckets.get(value);
    if (!bucket) buckets.set(value, (bucket = new Map<string, Activation>()));
    bucket.set(activation.id, activation);
  }

  remove(activation: Activation): void {
    const [buckets, value] = this.placeOf(activation);
    if (!buckets) {
      this.global.delete(activation.id);
      return;
    }
    const bucket = buckets.get(value);
    // An emptied bucket goes too: nothing is kept for a tenant whose activations are all used up.
    if (bucket?.delete(activation.id) && bucket.size === 0) buckets.delete(value);
  }

  /** The activations in scope of the request, newest first. */
  matching(facts: RequestFacts): Activation[] {
    const found: Activation[] = [];
    let sources = 0;
    for (const bucket of [
      facts.apiKeyId === null ? undefined : this.byKey.get(facts.apiKeyId),
      facts.accountId === null ? undefined : this.byAccount.get(facts.accountId),
      this.byOperation.get(facts.operation.operationId),
      this.global,
    ]) {
      if (!bucket || bucket.size === 0) continue;
      sources += 1;
      for (const activation of bucket.values()) if (activation.inScope(facts)) found.push(activation);
    }
    // Each bucket is oldest first; merged from several, activation order decides.
    return sources > 1 ? found.sort((a, b) => b.seq - a.seq) : found.reverse();
  }

  /** Activations narrowed to no account and no key: the global ones and those of `operationId`. */
  *forEveryCaller(operationId: string): Generator<Activation> {
    yield* this.global.values();
    yield* this.byOperation.get(operationId)?.values() ?? [];
  }

  private placeOf(activation: Activation): [Map<string, Bucket> | undefined, string] {
    const { apiKeyId, accountId, operationId } = activation.scope;
    if (apiKeyId !== null) return [this.byKey, apiKeyId];
    if (accountId !== null) return [this.byAccount, accountId];
    if (operationId !== null) return [this.byOperation, operationId];
    return [undefined, ''];
  }
}

/** What caused a webhook event: the key and operation of its request (none: `POST /__admin/events`). */
export interface EventCause {
  readonly apiKeyId: string | null;
  readonly operationId: string | null;
}

/** How the webhook hub asks for a twist (see `ScenarioEngine.webhookTwist`). */
export interface WebhookTwistUse {
  /** Whether an activation taking the events `takes` accepts would act here (no chance is drawn otherwise). */
  wouldAct(takes: (origin: EventCause) => boolean): boolean;
  /** It acts: its chance was drawn and its `times` counted. */
  act(takes: (origin: EventCause) => boolean): void;
}

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

export class ScenarioEngine {
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

  /** The rule the sandbox puts in `jobOutcomeRules`: the creating request's scenarios decide. */
  readonly jobOutcomeRule: JobOutcomeRule = (context) => context.scenarios?.jobDecision();

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
   * The scenarios that twist the account's webhooks this way now (contract §4.3, "scoped like any
   * other"): live activations scoped to the account or to no one, with a rule of that `webhook`
   * part, newest first. Each takes the events its key and operation scope and its rules' `match`
   * take (`takes`, over what caused an event); the hub says whether it `wouldAct` on those (no draw
   * is made otherwise), then its chance is drawn and, when it acts, its `times` counted (once per
   * event, or batch) and `act` called. The first that acts ends it, unless `every` (out of order:
   * each activation reorders its own deliveries of a batch).
   */
  webhookTwist(accountId: string, twist: WebhookTwist, use: WebhookTwistUse, every = false): void {
    const candidates = [...this.active.values()].filter(
      (activation) =>
        (activation.scope.accountId === null || activation.scope.accountId === accountId) &&
        activation.rules.some((rule) => rule.effect.webhook === twist),
    );
    for (const activation of candidates.reverse()) {
      const takes = this.webhookTakes(activation, twist);
      if (!use.wouldAct(takes) || !this.chance(activation, accountId)) continue;
      this.consume(activation);
      use.act(takes);
      if (!every) return;
    }
  }

  /** The events an activation's `twist` takes: of its key and operation, and of a rule of that part whose `match` takes their operation. */
  private webhookTakes(activation: Activation, twist: WebhookTwist): (origin: EventCause) => boolean {
    const { apiKeyId, operationId } = activation.scope;
    const rules = activation.rules.filter((rule) => rule.effect.webhook === twist);
    return (origin) => {
      if (apiKeyId !== null && origin.apiKeyId !== apiKeyId) return false;
      if (operationId !== null && origin.operationId !== operationId) return false;
      const operation = origin.operationId === null ? undefined : this.operations.get(origin.operationId);
      // A rule without `match` takes every event; one with it, only events an operation it matches caused.
      return rules.some((rule) => (!rule.operations && !rule.methods) || (operation !== undefined && ruleMatches(rule, operation)));
    };
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
      throw new ScenarioActivationError({ account_id: [`No such account: '${accountId}'.`] }, true);
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
