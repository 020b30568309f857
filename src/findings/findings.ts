/**
 * Findings (contract §5.1): where a client broke the service's rules, derived as requests finish and
 * deliveries end, kept per account and listed by the admin API. One per world: `POST /__admin/reset`
 * starts a new one, account reset and delete `forget` the account.
 */
import type { Finding, RaisedFinding } from './finding.js';
import type { DeliveryObservation, RequestObservation } from './observation.js';
import { RuleSwitches } from './rule-switches.js';
import { credentialOf, FindingRules } from './rules.js';
import { FindingStore, type FindingFilter } from './store.js';

export interface FindingsOptions {
  /** Findings kept per account before the oldest go (contract §5.1: 1,000). */
  maxPerAccount?: number;
  /** UTF-8 bytes of findings kept per account (src/findings/store.ts). */
  bytesPerAccount?: number;
  /** Which rules judge each account (src/findings/rule-switches.ts); every rule on without it. */
  switches?: RuleSwitches;
}

const NO_IDS: readonly string[] = Object.freeze([]);

export class Findings {
  private readonly rules = new FindingRules();
  readonly store: FindingStore;
  readonly switches: RuleSwitches;

  constructor(options: FindingsOptions = {}) {
    this.store = new FindingStore(options.maxPerAccount, options.bytesPerAccount);
    this.switches = options.switches ?? new RuleSwitches();
  }

  /** A /v1 request finished: the ids of the findings it completed (its journal entry lists them). */
  requestFinished(observation: RequestObservation): readonly string[] {
    return this.keep(this.rules.request(observation, this.switches.offFor(observation.accountId)));
  }

  /**
   * Whether the rules hold a state for the request's credential: its key, or the caller's address
   * when it sent none (read only then: most requests carry a key).
   */
  watches(apiKeyId: string | null, caller: { readonly callerIp: string }): boolean {
    return this.rules.watches(apiKeyId ?? credentialOf(null, caller.callerIp));
  }

  /** A webhook delivery ended (succeeded, or failed after its last retry). */
  deliveryEnded(observation: DeliveryObservation): readonly string[] {
    return this.keep(this.rules.delivery(observation, this.switches.offFor(observation.accountId)));
  }

  private keep(raised: RaisedFinding[]): readonly string[] {
    if (raised.length === 0) return NO_IDS;
    return raised.map((one) => this.store.add(one, new Date(one.at).toISOString()).id);
  }

  /** Every finding kept, oldest first. */
  all(): Finding[] {
    return this.store.all();
  }

  list(filter: FindingFilter): { data: Finding[]; has_more: boolean } {
    return this.store.list(filter);
  }

  /** `DELETE /__admin/findings[?account_id=]`: how many were dropped. The rules' memory stays. */
  clear(accountId?: string): number {
    return this.store.clear(accountId);
  }

  /**
   * An account's rules change (docs/findings.md "Silencing a rule"): what the rules now off had
   * remembered of its keys goes; findings already raised stay until cleared.
   */
  setRules(accountId: string, changes: Parameters<RuleSwitches['set']>[1]): void {
    this.rules.rulesChanged(accountId, this.switches.set(accountId, changes));
  }

  /** Account reset and delete: its findings and everything the rules kept about its keys (its rule settings stay). */
  forget(accountId: string): void {
    this.store.clear(accountId);
    this.rules.forget(accountId);
  }

  /** Credentials the rules hold a state for (tests: a well-behaved client leaves none). */
  get trackedCredentials(): number {
    return this.rules.credentials;
  }
}

export type { Finding, RuleName, Severity } from './finding.js';
export { RULES, RULE_NAMES, SEVERITIES } from './finding.js';
export type { DeliveryObservation, Instant, RequestObservation } from './observation.js';
export type { RuleSetting, RuleSettings } from './rule-switches.js';
export { RULE_SETTINGS, RuleSwitches, unknownRules } from './rule-switches.js';
export { elapsedMs } from './observation.js';
export type { FindingFilter } from './store.js';
export { UnknownFindingCursor, MAX_FINDINGS_PER_ACCOUNT, DEFAULT_FINDINGS_BYTES_PER_ACCOUNT } from './store.js';
