/**
 * What `mock.admin.accounts.create()` returns (contract §4.1): the created account and its key, as
 * before (`const { account, api_key } = …` still works), plus the controls a test reaches for:
 * `tenant.clock.advance(60)`, `tenant.reset()`, `tenant.delete()`.
 */
import type { AccountStateSnapshot, AdminAccount, AdminApiKey, AdminClient, Finding, FindingsQuery } from './client.js';

/** `"clock"` of an account: its instant, its mode, and whether it is the sandbox clock. */
export interface AccountClockState {
  now: string;
  mode: 'running' | 'frozen';
  shared: boolean;
}

/** `shared` (the default), `frozen`, `running`, or an ISO 8601 instant to freeze the account's own clock at. */
export type AccountClockSetting = 'shared' | 'frozen' | 'running' | (string & {});

/** One account's clock; every call but `get` gives an account on the shared clock its own. */
export interface TenantClock {
  get(): Promise<AccountClockState>;
  set(input: { mode?: 'running' | 'frozen'; now?: string }): Promise<AccountClockState>;
  freeze(now?: string): Promise<AccountClockState>;
  run(): Promise<AccountClockState>;
  advance(seconds: number): Promise<AccountClockState>;
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
  /** Back to its state right after creation: same id, keys, tokens and records; fresh counters. */
  reset(): Promise<AdminAccount>;
  /** Contract §5.1: this account's findings, newest first (`rule`, `severity`, `limit`… filter them). */
  findings(query?: Omit<FindingsQuery, 'account_id'>): Promise<{ object: 'list'; data: Finding[]; has_more: boolean }>;
  /** Gone with everything of it; its token answers 401 from then on. */
  delete(): Promise<{ id: string; object: 'account'; deleted: true }>;
}

export function accountClock(admin: AdminClient, accountId: string): TenantClock {
  const path = `/accounts/${encodeURIComponent(accountId)}/clock`;
  return {
    get: () => admin.request<AccountClockState>('GET', path),
    set: (input) => admin.request<AccountClockState>('POST', path, input),
    freeze: (now) => admin.request<AccountClockState>('POST', path, { mode: 'frozen', ...(now ? { now } : {}) }),
    run: () => admin.request<AccountClockState>('POST', path, { mode: 'running' }),
    advance: (seconds) => admin.request<AccountClockState>('POST', `${path}/advance`, { seconds }),
  };
}

export function tenantHandle(admin: AdminClient, created: { account: AdminAccount; api_key: AdminApiKey & { token: string } }): Tenant {
  const id = created.account.id;
  const tenant: Tenant = {
    account: created.account,
    api_key: created.api_key,
    id,
    token: created.api_key.token,
    clock: accountClock(admin, id),
    state: () => admin.accounts.get(id),
    reset: async () => {
      tenant.account = (await admin.accounts.reset(id)).account;
      return tenant.account;
    },
    findings: (query = {}) => admin.findings.list({ ...query, account_id: id }),
    delete: () => admin.accounts.delete(id),
  };
  return tenant;
}
