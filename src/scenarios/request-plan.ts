/**
 * The scenarios matching one request (contract §3.5), and which of them acted on it. Each part of an
 * effect (delay, deprecation, the answer, the job outcome) comes from the first (activation, rule)
 * pair that sets it, so a "slow" scenario and a "fail" scenario combine, and the newest "fail" wins
 * over an older one. An activation is counted once per request it acted on, at that moment and
 * synchronously, so `times` is exact however many requests run at once.
 */
import type { JobOutcomeDecision } from '../jobs/outcome.js';
import { formatWord } from '../protocol/prefer.js';
import type { Activation } from './activation.js';
import type { ErrorEffect, ResolvedEffect, ResolvedRule } from './effect.js';
import type { FaultEffect } from './fault-effect.js';

const NONE: readonly string[] = Object.freeze([]);

/** What the scenarios do to one request before it reaches the operation. */
export interface RequestPlan {
  delayMs?: number;
  deprecate?: NonNullable<ResolvedEffect['deprecate']>;
  /** The scenario's answer in place of the operation's. */
  answer?: { error: ErrorEffect } | { expireKey: true };
  /** The answer lost on the way (before the operation runs, or after). */
  fault?: FaultEffect;
}

/** How an activation's chance is drawn and its `times` counted: the engine's, whose streams and registry these are. */
export interface ActivationCounter {
  chance(activation: Activation, accountId: string | null): boolean;
  consume(activation: Activation): void;
}

export interface Candidate {
  activation: Activation;
  rule: ResolvedRule;
}

/** The scenarios matching one request, and which of them acted on it. */
export class RequestScenarios {
  private readonly applied: Activation[] = [];
  /** Activations whose draw said "not this request": none of their parts act on it, jobs included. */
  private readonly declined = new Set<Activation>();

  constructor(
    private readonly engine: ActivationCounter,
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
  scenarioIds(): readonly string[] {
    // Most requests meet no scenario: the shared empty list, no array each.
    return this.applied.length === 0 ? NONE : this.applied.map((activation) => activation.id);
  }

  /** Names of the scenarios that acted, in order (coverage counts by name, contract §5.2). */
  scenarioNames(): readonly string[] {
    return this.applied.length === 0 ? NONE : this.applied.map((activation) => activation.definition.name);
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
