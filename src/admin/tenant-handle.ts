/**
 * What `mock.admin.accounts.create()` returns (contract §4.1): the created account and its key, as
 * before (`const { account, api_key } = …` still works), plus the controls a test reaches for:
 * `tenant.clock.advance(60)`, `tenant.reset()`, `tenant.delete()`. It calls the routes through the
 * client's `call` (api-types.ts), never the client itself, so the two modules do not import each other.
 */
import type {
  AccountClockState,
  AccountSnapshot,
  AccountStateSnapshot,
  AdminAccount,
  AdminApiKey,
  AdminCall,
  Finding,
  FindingRules,
  FindingsQuery,
  RuleChanges,
  ListPage,
  AdvancedBy,
  CoverageView,
  HarDocument,
  HarQuery,
  SetClockInput,
} from './api-types.js';

export type { AccountClockSetting, AccountClockState } from './api-types.js';

/**
 * What `clock.advance` takes: seconds, or `{ until: 'idle' }` (contract §5.4): to the instant at
 * which nothing of the account (or of the accounts on the sandbox clock) is still due (every job
 * ended, every webhook delivery succeeded or failed), at most `max_seconds` (default a week) away.
 */
export type ClockAdvanceInput = number | { seconds: number } | { until: 'idle'; max_seconds?: number };

/** The body `clock.advance(input)` sends. */
export function advanceBody(input: ClockAdvanceInput): { seconds?: number; until?: 'idle'; max_seconds?: number } {
  return typeof input === 'number' ? { seconds: input } : input;
}

/** One account's clock; every call but `get` gives an account on the shared clock its own. */
export interface TenantClock {
  get(): Promise<AccountClockState>;
  set(input: SetClockInput): Promise<AccountClockState>;
  freeze(now?: string): Promise<AccountClockState>;
  run(): Promise<AccountClockState>;
  /** `advance(60)`, or `advance({ until: 'idle' })`, whose answer adds `advanced_seconds`. */
  advance(input: ClockAdvanceInput): Promise<AccountClockState & AdvancedBy>;
}

/**
 * `tenant.findings()` lists the account's findings; `tenant.findings.rules()` reads which rules judge
 * it, `tenant.findings.rules({ 'retry-after-ignored': 'off' })` changes some (docs/findings.md "Silencing a rule").
 */
export interface TenantFindings {
  (query?: Omit<FindingsQuery, 'account_id'>): Promise<ListPage<Finding>>;
  rules(changes?: RuleChanges): Promise<FindingRules>;
}

/** One account's findings rules: read them, or turn some on or off (the others keep their setting). */
export function accountFindingRules(
  call: AdminCall,
  accountId: string,
): { get(): Promise<FindingRules>; set(changes: RuleChanges): Promise<FindingRules> } {
  const params = { id: accountId };
  return {
    get: () => call('GET /accounts/{id}/findings/rules', { params }),
    set: (changes) => call('POST /accounts/{id}/findings/rules', { params, body: { rules: changes } }),
  };
}

function tenantFindings(call: AdminCall, accountId: string): TenantFindings {
  const rules = accountFindingRules(call, accountId);
  const list = (query: Omit<FindingsQuery, 'account_id'> = {}) => call('GET /findings', { query: { ...query, account_id: accountId } });
  return Object.assign(list, { rules: (changes?: RuleChanges) => (changes === undefined ? rules.get() : rules.set(changes)) });
}

export interface Tenant {
  /** The account as created; `reset()` refreshes it. */
  account: AdminAccount;
  api_key: AdminApiKey & { token: string };
  /** `account.id` and `api_key.token`, the two values a test uses most. */
  readonly id: string;
  readonly token: string;
  readonly clock: TenantClock;
  /** `GET /__admin/accounts/{id}`: the account and every collection of it. */
  state(): Promise<AccountStateSnapshot>;
  /** `GET /__admin/accounts/{id}/snapshot` (contract §5.3): load it with `admin.accounts.create({ snapshot })`. */
  snapshot(): Promise<AccountSnapshot>;
  /** Back to its state right after creation: same id, keys, tokens and records; fresh counters. */
  reset(): Promise<AdminAccount>;
  /**
   * Contract §5.1: this account's findings, newest first (`rule`, `severity`, `limit`… filter them);
   * `findings.rules(…)` reads or changes which rules judge it.
   */
  readonly findings: TenantFindings;
  /** Gone with everything of it; its token answers 401 from then on. */
  delete(): Promise<{ id: string; object: 'account'; deleted: true }>;
  /** `GET /__admin/coverage?account_id=`: what this account's requests and webhooks exercised (contract §5.2). */
  coverage(): Promise<CoverageView>;
  /** `GET /__admin/requests.har?account_id=`: this account's journal as a HAR 1.2 log (contract §5.3). */
  har(query?: Omit<HarQuery, 'account_id'>): Promise<HarDocument>;
}

export function accountClock(call: AdminCall, accountId: string): TenantClock {
  const params = { id: accountId };
  return {
    get: () => call('GET /accounts/{id}/clock', { params }),
    set: (input) => call('POST /accounts/{id}/clock', { params, body: input }),
    freeze: (now) => call('POST /accounts/{id}/clock', { params, body: { mode: 'frozen', ...(now ? { now } : {}) } }),
    run: () => call('POST /accounts/{id}/clock', { params, body: { mode: 'running' } }),
    advance: (input) => call('POST /accounts/{id}/clock/advance', { params, body: advanceBody(input) }),
  };
}

export function tenantHandle(call: AdminCall, created: { account: AdminAccount; api_key: AdminApiKey & { token: string } }): Tenant {
  const id = created.account.id;
  const params = { id };
  const tenant: Tenant = {
    account: created.account,
    api_key: created.api_key,
    id,
    token: created.api_key.token,
    clock: accountClock(call, id),
    state: () => call('GET /accounts/{id}', { params }),
    snapshot: () => call('GET /accounts/{id}/snapshot', { params }),
    reset: async () => {
      tenant.account = (await call('POST /accounts/{id}/reset', { params })).account;
      return tenant.account;
    },
    findings: tenantFindings(call, id),
    delete: () => call('DELETE /accounts/{id}', { params }),
    coverage: () => call('GET /coverage', { query: { account_id: id } }),
    har: (query = {}) => call('GET /requests.har', { query: { ...query, account_id: id } }),
  };
  return tenant;
}
