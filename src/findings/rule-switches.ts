/**
 * Which rules judge an account (docs/findings.md "Silencing a rule"), as a linter's rule config
 * does: each rule `"on"` or `"off"`, the sandbox's defaults first (every rule on unless
 * `findingsRules` turns one off), an account's own settings over them. An account that set nothing
 * holds nothing here; one that did holds its settings (at most one per rule) and the set of rules it
 * has off, computed once when they change, so judging a request reads one map.
 */
import { RULE_NAMES, type RuleName } from './finding.js';

export type RuleSetting = 'on' | 'off';
export const RULE_SETTINGS: readonly RuleSetting[] = ['on', 'off'];

/** Every rule with its setting, in the table's order: what `GET /__admin/accounts/{id}/findings/rules` answers. */
export type RuleSettings = Record<RuleName, RuleSetting>;

const NONE: ReadonlySet<RuleName> = new Set();

export function isRuleName(name: string): name is RuleName {
  return (RULE_NAMES as readonly string[]).includes(name);
}

/** The members of `rules` that name no rule (to refuse them, naming each). */
export function unknownRules(rules: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(rules).filter((name) => !isRuleName(name));
}

export class RuleSwitches {
  private readonly defaultsOff: ReadonlySet<RuleName>;
  /** Per account: its own settings, and the rules off for it once they are applied over the defaults. */
  private readonly accounts = new Map<string, { settings: Partial<Record<RuleName, RuleSetting>>; off: ReadonlySet<RuleName> }>();

  constructor(defaults: Readonly<Partial<Record<RuleName, RuleSetting>>> = {}) {
    this.defaultsOff = new Set(RULE_NAMES.filter((rule) => defaults[rule] === 'off'));
  }

  /** The rules that raise nothing for this account (requests without a known key: the defaults). */
  offFor(accountId: string | null): ReadonlySet<RuleName> {
    if (accountId === null) return this.defaultsOff.size === 0 ? NONE : this.defaultsOff;
    return this.accounts.get(accountId)?.off ?? this.defaultsOff;
  }

  /** The named rules take these settings; the others keep theirs. Answers the rules off now. */
  set(accountId: string, changes: Readonly<Partial<Record<RuleName, RuleSetting>>>): ReadonlySet<RuleName> {
    const settings = { ...this.accounts.get(accountId)?.settings };
    for (const rule of RULE_NAMES) if (changes[rule] !== undefined) settings[rule] = changes[rule];
    const off = new Set(RULE_NAMES.filter((rule) => (settings[rule] ?? (this.defaultsOff.has(rule) ? 'off' : 'on')) === 'off'));
    this.accounts.set(accountId, { settings, off });
    return off;
  }

  /** Every rule and whether it judges this account. */
  view(accountId: string): RuleSettings {
    const off = this.offFor(accountId);
    return Object.fromEntries(RULE_NAMES.map((rule) => [rule, off.has(rule) ? 'off' : 'on'])) as RuleSettings;
  }

  /** Account deletion: its settings go with it. */
  forget(accountId: string): void {
    this.accounts.delete(accountId);
  }
}
