/**
 * What `mock.admin.accounts.create()` returns (contract §4.1): the created account and its key, as
 * before (`const { account, api_key } = …` still works), plus the controls a test reaches for:
 * `tenant.clock.advance(60)`, `tenant.reset()`, `tenant.delete()`. It calls the routes through the
 * client's `call` (api-types.ts), never the client itself, so the two modules do not import each other.
 */
import type {
  AccountClockState,
  AccountStateSnapshot,
  AdminAccount,
  AdminApiKey,
  AdminCall,
  CoverageView,
  HarDocument,
  HarQuery,
  SetClockInput,
} from './api-types.js';

export type { AccountClockSetting, AccountClockState } from './api-types.js';

/** One account's clock; every call but `get` gives an account on the shared clock its own. */
export interface TenantClock {
  get(): Promise<AccountClockState>;
  set(input: SetClockInput): Promise<AccountClockState>;
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
    advance: (seconds) => call('POST /accounts/{id}/clock/advance', { params, body: { seconds } }),
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
    reset: async () => {
      tenant.account = (await call('POST /accounts/{id}/reset', { params })).account;
      return tenant.account;
    },
    delete: () => call('DELETE /accounts/{id}', { params }),
    coverage: () => call('GET /coverage', { query: { account_id: id } }),
    har: (query = {}) => call('GET /requests.har', { query: { ...query, account_id: id } }),
  };
  return tenant;
}
