/**
 * What `mock.admin.accounts.create()` returns (contract §4.1): the created account and its key, as
 * before (`const { account, api_key } = …` still works), plus the controls a test reaches for:
 * `tenant.clock.advance(60)`, `tenant.reset()`, `tenant.delete()`.
 */
import type { AccountSnapshot, AccountStateSnapshot, AdminAccount, AdminApiKey, AdminClient } from './client.js';

/** `"clock"` of an account: its instant, its mode, and whether it is the sandbox clock. */
export interface AccountClockState {
  now: string;
  mode: 'running' | 'frozen';
  shared: boolean;
}

/** `shared` (the default), `frozen`, `running`, or an ISO 8601 instant to freeze the account's own clock at. */
export type AccountClockSetting = 'shared' | 'frozen' | 'running' | (string & {});

/**
 * What `clock.advance` takes: seconds, or `{ until: 'idle' }` (contract §5.4): to the instant at
 * which nothing of the account is still due (every job ended, every webhook delivery succeeded or
 * failed), at most `max_seconds` (default a week) away.
 */
export type ClockAdvanceInput = number | { seconds: number } | { until: 'idle'; max_seconds?: number };

/** The body `clock.advance(input)` sends. */
export function advanceBody(input: ClockAdvanceInput): Record<string, unknown> {
  return typeof input === 'number' ? { seconds: input } : input;
}

/** One account's clock; every call but `get` gives an account on the shared clock its own. */
export interface TenantClock {
  get(): Promise<AccountClockState>;
  set(input: { mode?: 'running' | 'frozen'; now?: string }): Promise<AccountClockState>;
  freeze(now?: string): Promise<AccountClockState>;
  run(): Promise<AccountClockState>;
  /** `advance(60)`, or `advance({ until: 'idle' })`, whose answer adds `advanced_seconds`. */
  advance(input: ClockAdvanceInput): Promise<AccountClockState & { advanced_seconds?: number }>;
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
    advance: (input) => admin.request<AccountClockState & { advanced_seconds?: number }>('POST', `${path}/advance`, advanceBody(input)),
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
    snapshot: () => admin.accounts.snapshot(id),
    reset: async () => {
      tenant.account = (await admin.accounts.reset(id)).account;
      return tenant.account;
    },
    delete: () => admin.accounts.delete(id),
  };
  return tenant;
}
