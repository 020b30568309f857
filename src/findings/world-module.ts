/**
 * Findings as a world module (src/sandbox/world-module.ts): a fresh `Findings` per world (so a
 * sandbox reset starts over), fed by the `requestFinished` and `deliveryEnded` hooks, forgetting an
 * account on its reset and deletion. With `findingsBudget: 0` the instance has no traffic hooks, so
 * the world builds no exchange for it. This layer sits below the world: `create` types only what it
 * reads of it.
 */
import { stringify as queryString } from 'node:querystring';
import type { RequestJournal } from '../protocol/request-journal.js';
import type { EndedDelivery } from '../webhooks/ended-delivery.js';
import type { Finding } from './finding.js';
import { Findings } from './findings.js';
import { ConfigError } from '../errors/config-error.js';
import { RuleSwitches, unknownRules, type RuleSetting } from './rule-switches.js';
import { RULE_NAMES, type RuleName } from './finding.js';
import type { Instant, RequestObservation } from './observation.js';

/** What a finished /v1 request reads of the exchange (src/sandbox/world-module.ts `RequestExchange`). */
export interface FindingsExchange {
  readonly requestId: string;
  readonly accountId: string | null;
  readonly apiKeyId: string | null;
  readonly callerIp: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly operationId: string | null;
  readonly body: unknown;
  readonly idempotencyKeySent: string | null;
  readonly status: number | null;
  readonly errorCode: string | null;
  readonly headers: { readonly retryAfter: string | null; readonly deprecation: string | null; readonly sunset: string | null };
  readonly fault: string | null;
  readonly closedEarly: boolean;
  readonly rateLimitedBy: 'quota' | 'scenario' | null;
  readonly rateLimitResetAt: number | null;
  readonly tookEffect: boolean;
  readonly job: { readonly id: string; readonly status: string } | null;
  readonly lateBody: (() => Promise<unknown>) | null;
  /** The caller's account was reset or deleted since the request arrived (read when asked): judged no more. */
  readonly accountForgotten: boolean;
  readonly realStart: number;
  readonly realEnd: number;
  readonly virtualStart: number;
  readonly virtualEnd: number;
}

export interface FindingsWorld {
  readonly options: {
    readonly findingsBudget: number;
    /** The sandbox's defaults (`--findings-rules`): every rule on unless turned off here. */
    readonly findingsRules?: Readonly<Record<string, RuleSetting>>;
  };
  readonly journal: Pick<RequestJournal, 'noteFindings'>;
  timeOf(accountId: string): { readonly clock: { now(): number } };
}

const RETRY_AFTER_SECONDS = /^\d+$/;

/** The sandbox's defaults, once every name is known to be a rule (a ConfigError at start-up otherwise). */
function knownRules(settings: Readonly<Record<string, RuleSetting>>): Partial<Record<RuleName, RuleSetting>> {
  const [unknown] = unknownRules(settings);
  if (unknown !== undefined)
    throw new ConfigError('findings-rules', `no rule ${JSON.stringify(unknown)}; the rules are ${RULE_NAMES.join(', ')}`);
  return settings;
}

function observation(exchange: FindingsExchange, body: unknown, answered: Instant): RequestObservation {
  const { retryAfter, deprecation, sunset } = exchange.headers;
  const arrived: Instant = { real: exchange.realStart, virtual: exchange.virtualStart };
  return {
    requestId: exchange.requestId,
    accountId: exchange.accountId,
    apiKeyId: exchange.apiKeyId,
    callerIp: exchange.callerIp,
    method: exchange.method,
    path: exchange.path,
    querystring: queryString(exchange.query),
    // None sent reads as none; a body that was not JSON is told apart from none, not from another.
    body: () => (body === null ? undefined : body),
    idempotencyKey: exchange.idempotencyKeySent ?? undefined,
    operationId: exchange.operationId,
    status: exchange.status,
    errorCode: exchange.errorCode ?? undefined,
    retryAfterSeconds:
      exchange.status === 429 && retryAfter !== null && RETRY_AFTER_SECONDS.test(retryAfter) ? Number(retryAfter) : undefined,
    deprecation: deprecation === null || sunset === null ? undefined : { sunset: new Date(sunset).toISOString() },
    fault: exchange.fault,
    closedEarly: exchange.closedEarly,
    rateLimited: exchange.rateLimitedBy ?? undefined,
    rateLimitWindow: exchange.rateLimitResetAt ?? undefined,
    tookEffect: exchange.tookEffect,
    job: exchange.job ?? undefined,
    arrived,
    answered,
  };
}

/** The module's instance: the hooks, and what the admin routes read. */
export interface FindingsInstance {
  /** Undefined when findings are off (`findingsBudget: 0`). */
  readonly findings: Findings | undefined;
  /**
   * Which rules judge each account: kept by account reset (a setting of the account, like its webhook
   * endpoints), dropped by its deletion and by a sandbox reset (a new world starts from the defaults).
   */
  readonly switches: RuleSwitches;
  /** Sets some rules of an account on or off (the others keep their setting). */
  setRules(accountId: string, changes: Readonly<Partial<Record<RuleName, RuleSetting>>>): void;
  /**
   * Resolves once the requests answered before their body arrived have been judged, or after
   * `boundMs` (real time: a client that never finishes its body cannot stall a listing).
   */
  settled(boundMs: number): Promise<void>;
  /** Every finding kept, every account's, oldest first: what the `--report` file lists (src/report/findings-source.ts). */
  reportFindings(): readonly Finding[];
  accountReset?(accountId: string): void;
  accountDeleted?(accountId: string): void;
  requestFinished?(exchange: FindingsExchange): void;
  deliveryEnded?(delivery: EndedDelivery): void;
}

export const findingsModule = {
  name: 'findings',
  create(world: FindingsWorld): FindingsInstance {
    const switches = new RuleSwitches(knownRules(world.options.findingsRules ?? {}));
    if (world.options.findingsBudget <= 0) {
      return {
        findings: undefined,
        switches,
        setRules: (accountId, changes) => void switches.set(accountId, changes),
        accountDeleted: (accountId) => switches.forget(accountId),
        settled: () => Promise.resolve(),
        reportFindings: () => [],
      };
    }
    const findings = new Findings({ bytesPerAccount: world.options.findingsBudget, switches });
    const judging = new Set<Promise<void>>();
    const judge = (exchange: FindingsExchange, body: unknown, answered: Instant) => {
      // Reset or deleted while it ran, or while its body arrived: nothing of it is kept (contract §5.1).
      if (exchange.accountForgotten) return;
      // The journal entry was finished before this hook ran (its middleware sits inside), so the
      // findings are added to it by request id.
      const ids = findings.requestFinished(observation(exchange, body, answered));
      world.journal.noteFindings(exchange.requestId, ids);
    };
    const guarded = (run: () => void) => {
      try {
        run();
      } catch {
        // Judging the client must never break serving it.
      }
    };
    const forget = (accountId: string) => findings.forget(accountId);
    return {
      findings,
      switches,
      setRules: (accountId, changes) => findings.setRules(accountId, changes),
      reportFindings: () => findings.all(),
      async settled(boundMs) {
        if (judging.size === 0) return;
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
        await Promise.race([Promise.all(judging), bound]);
        clearTimeout(timer);
      },
      accountReset: forget,
      accountDeleted: (accountId) => {
        forget(accountId);
        switches.forget(accountId);
      },
      requestFinished(exchange) {
        // Nothing pending for this credential and a plain success: no rule can fire. Checked first and
        // cheapest first (most requests stop at the credential's one map lookup), before anything is
        // read that only a judged request needs; `judge` checks a reset or deletion meanwhile.
        const status = exchange.status;
        const plain =
          status !== null &&
          status < 300 &&
          !findings.watches(exchange.apiKeyId, exchange) &&
          exchange.fault === null &&
          !exchange.closedEarly &&
          exchange.operationId !== 'getJob' &&
          exchange.headers.deprecation === null;
        if (plain || exchange.accountForgotten) return;
        // The end is read now: judged later (its body still arriving), the request ended all the same.
        const answered: Instant = { real: exchange.realEnd, virtual: exchange.virtualEnd };
        const late = exchange.lateBody;
        if (late === null) return guarded(() => judge(exchange, exchange.body, answered));
        // A body answered early still counts in "the same request" (contract §5): judged once it arrived.
        const done = late().then((body) => guarded(() => judge(exchange, body, answered)));
        judging.add(done);
        void done.finally(() => judging.delete(done));
      },
      deliveryEnded(delivery) {
        // Ended by its endpoint's deletion: the test's doing, not the receiver's.
        if (delivery.endpointDeleted) return;
        guarded(() => {
          findings.deliveryEnded({
            deliveryId: delivery.deliveryId,
            accountId: delivery.accountId,
            endpointId: delivery.endpointId,
            eventType: delivery.eventType,
            status: delivery.outcome,
            wrongSecret: delivery.badlySigned,
            lastStatusCode: delivery.lastStatus,
            attempts: delivery.attempts,
            at: world.timeOf(delivery.accountId).clock.now(),
          });
        });
      },
    };
  },
};
