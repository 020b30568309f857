/**
 * The effect language of scenario rules (scenarios/README.md): what a rule does to a request, its
 * jobs or its account's webhooks, once its params are filled in. `resolveEffect` checks an effect
 * against EFFECT_SHAPE and turns it into the parts the request plan combines.
 */
import { ERROR_CATALOG, type ErrorCode } from '../errors/catalog.js';
import { JOB_ERROR_CODE_MAX_LENGTH, JOB_ERROR_MAX_LENGTH, type JobOutcomeDecision } from '../jobs/outcome.js';
import { DeprecationRuleError, parseDeprecation } from '../protocol/deprecation.js';
import type { WebhookTwist } from '../webhooks/twists.js';
import { FAULT_SHAPE, resolveFault, type FaultEffect } from './fault-effect.js';
import { check, type Shape } from './shape.js';
import { WEBHOOK_SHAPE } from './webhook-effect.js';

/** The longest `delay_ms` an effect may ask for: long enough for any client timeout test, short enough for a test run. */
export const MAX_DELAY_MS = 30_000;
/** The longest `retry_after` an error effect may announce (one day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** An effect with its params filled in. At least one part; parts combine (a delay, then an answer). */
export const EFFECT_SHAPE: Shape = {
  kind: 'object',
  nonEmpty: true,
  fields: {
    delay_ms: { kind: 'integer', min: 0, max: MAX_DELAY_MS },
    error: {
      kind: 'object',
      required: ['code'],
      fields: {
        code: { kind: 'enum', values: Object.keys(ERROR_CATALOG) },
        status: { kind: 'integer', min: 400, max: 599 },
        message: { kind: 'string', minLength: 1, maxLength: 1000 },
        retry_after: { kind: 'integer', min: 0, max: MAX_RETRY_AFTER_SECONDS },
      },
    },
    expire_key: { kind: 'true' },
    fault: FAULT_SHAPE,
    webhook: WEBHOOK_SHAPE,
    deprecate: {
      kind: 'object',
      required: ['deprecated_at', 'sunset', 'link'],
      fields: { deprecated_at: { kind: 'string' }, sunset: { kind: 'string' }, link: { kind: 'string' } },
    },
    job: {
      kind: 'object',
      nonEmpty: true,
      fields: {
        outcome: { kind: 'enum', values: ['completed', 'failed', 'cancelled'] },
        error: { kind: 'string', minLength: 1, maxLength: JOB_ERROR_MAX_LENGTH },
        error_code: { kind: 'string', pattern: new RegExp(`^[a-z][a-z0-9_]{0,${JOB_ERROR_CODE_MAX_LENGTH - 1}}$`) },
        at_progress: { kind: 'integer', min: 0, max: 99 },
        slow_factor: { kind: 'number', above: 0, max: 1000 },
      },
    },
  },
};

export interface ErrorEffect {
  code: ErrorCode;
  status?: number;
  message?: string;
  retry_after?: number;
}

export interface ResolvedEffect {
  delayMs?: number;
  error?: ErrorEffect;
  expireKey?: true;
  /** The answer lost on the way (contract §4.2). */
  fault?: FaultEffect;
  /** Whole-second epoch ms and the link, checked against the six-month rule. */
  deprecate?: { deprecatedAt: number; sunset: number; link: string };
  job?: JobOutcomeDecision;
  /** What goes wrong with the scoped accounts' webhooks (contract §4.3); never acts on a request. */
  webhook?: WebhookTwist;
}

export interface ResolvedRule {
  operations: ReadonlySet<string> | undefined;
  methods: ReadonlySet<string> | undefined;
  effect: ResolvedEffect;
}

/** An effect that breaks the language once its params are in: the pointer is inside the effect. */
export class RuleError extends Error {
  rule = 0;
  param: string | undefined;
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

export function set(values: readonly string[] | undefined): ReadonlySet<string> | undefined {
  return values ? new Set(values) : undefined;
}

export function resolveEffect(effect: Record<string, unknown>): ResolvedEffect {
  const problem = check(effect, EFFECT_SHAPE);
  if (problem) throw new RuleError(problem.pointer, problem.detail);
  const raw = effect as {
    delay_ms?: number;
    error?: ErrorEffect;
    expire_key?: true;
    fault?: Parameters<typeof resolveFault>[0];
    deprecate?: { deprecated_at: string; sunset: string; link: string };
    job?: JobOutcomeDecision;
    webhook?: WebhookTwist;
  };
  // Both answer the request: one effect cannot give two answers.
  if (raw.error && raw.expire_key)
    throw new RuleError('/expire_key', "cannot be combined with 'error' in one effect (both answer the request)");
  const resolved: ResolvedEffect = {};
  if (raw.delay_ms !== undefined) resolved.delayMs = raw.delay_ms;
  if (raw.error) resolved.error = raw.error;
  if (raw.expire_key) resolved.expireKey = true;
  if (raw.fault) resolved.fault = resolveFault(raw.fault);
  if (raw.job) resolved.job = raw.job;
  if (raw.webhook) resolved.webhook = raw.webhook;
  if (raw.deprecate) {
    try {
      // The operation is the one each request names; any valid id stands in for the check.
      const info = parseDeprecation({ operation_id: 'scenario', ...raw.deprecate });
      resolved.deprecate = { deprecatedAt: info.deprecatedAt, sunset: info.sunset, link: info.link };
    } catch (error) {
      if (!(error instanceof DeprecationRuleError)) throw error;
      throw new RuleError(`/deprecate${error.field ? `/${error.field}` : ''}`, error.message);
    }
  }
  return resolved;
}
