/**
 * A typed client of the admin API (contract §3), returned as `mock.admin` by `startMockServer` and
 * usable on its own against any running sandbox: `new AdminClient('http://127.0.0.1:4010')`.
 */
import type { accountState } from './routes.js';
import type { JournalEntry, JournalFilter } from '../protocol/request-journal.js';
import type { ActivationInput, ActiveScenarioView } from '../scenarios/engine.js';
import type { EventType } from '../operations/event-types.js';
import type { DeliveryFilter } from '../webhooks/hub.js';
import type { EventFilter, WebhookDeliveryView, WebhookEndpoint, WebhookEvent } from '../webhooks/records.js';
import type { AccountTemplate } from '../fixture/fixture-file.js';
import type { PinnedRecords } from '../store/pinned-records.js';
import type { AccountSnapshot } from '../snapshot/shape.js';
import {
  accountClock,
  advanceBody,
  tenantHandle,
  type AccountClockSetting,
  type AccountClockState,
  type ClockAdvanceInput,
  type Tenant,
} from './tenant-handle.js';

export type { AccountClockSetting, AccountClockState, ClockAdvanceInput, Tenant, TenantClock } from './tenant-handle.js';

export type { AccountTemplate } from '../fixture/fixture-file.js';
export type { PinnedRecords } from '../store/pinned-records.js';
export type { AccountSnapshot } from '../snapshot/shape.js';

/** The body of `POST /__admin/accounts` (contract §3.2, §4.1; the record sources: docs/fixtures.md). */
export interface CreateAccountInput {
  plan?: 'free' | 'paid';
  name?: string;
  /** `shared` (default), `frozen`, `running` or an ISO 8601 instant: the account's own clock. */
  clock?: AccountClockSetting;
  /** Take the template of this fixture: a name under the package's fixtures/, or a path to a fixture file inside the server's working directory. */
  fixture?: string;
  /** The template inline, in the shape of a fixture's `template` (not with `fixture`). */
  template?: AccountTemplate;
  /** Records with fixed ids and the fields you set, in the shape of a fixture account's `pinned`. */
  pinned?: PinnedRecords;
  /**
   * Recreate an account from `accounts.snapshot(id)` (contract §5.3), here or in another sandbox with
   * the same seed and fixtures: alone, or with `clock` (frozen at the snapshot's instant by default).
   */
  snapshot?: AccountSnapshot;
}

export interface AdminAccount {
  id: string;
  object: 'account';
  name: string;
  plan: 'free' | 'paid';
  created_at: string;
  credits: { balance: number; used: number };
  /** Contract §4.1: the account's clock. */
  clock: AccountClockState;
}

export interface AdminApiKey {
  object: 'api_key';
  id: string;
  name: string | null;
  last4: string;
  token_type: string;
  token: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
  access?: 'full' | 'read_only';
  revoked_at?: string | null;
}

export interface ClockState {
  now: string;
  mode: 'running' | 'frozen';
}

/**
 * `GET /__admin/accounts/{id}` (contract §3.2): every collection of the account with its record type,
 * jobs summarized, and the credits. The type the server's `accountState` returns, so the two agree.
 */
export type AccountStateSnapshot = ReturnType<typeof accountState>;

/** A scenario file the sandbox can activate (`GET /__admin/scenarios` `available`). */
export interface AvailableScenario {
  name: string;
  description: string;
  /** Declared params: name -> JSON Schema with its `default`. */
  params: Record<string, Record<string, unknown>>;
}

// Type-only: the shapes the sandbox answers, declared once beside the code that builds them.
export type { ActiveScenarioView as ActiveScenario, ActivationInput as ActivateScenario } from '../scenarios/engine.js';
export type { JournalEntry } from '../protocol/request-journal.js';
export type { EventType } from '../operations/event-types.js';
export type { WebhookDeliveryView as WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../webhooks/records.js';

export type JournalQuery = Partial<JournalFilter>;

/** An admin call that did not succeed; carries the envelope the sandbox answered. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`admin call failed with ${status}${error?.code ? ` ${error.code}` : ''}: ${error?.message ?? JSON.stringify(body)}`);
    this.name = 'AdminError';
  }
}

/** `?a=1&b=2` of the defined members, or '' when there are none. */
function queryString(query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  const encoded = search.toString();
  return encoded ? `?${encoded}` : '';
}

export class AdminClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly adminToken?: string,
  ) {
    this.base = `${url.replace(/\/$/, '')}/__admin`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.adminToken !== undefined) headers['x-admin-token'] = this.adminToken;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not the sandbox answering (a proxy's error page, say): still an AdminError, with the text.
      parsed = text;
    }
    if (!response.ok) throw new AdminError(response.status, parsed);
    return parsed as T;
  }

  health(): Promise<{ status: 'ok' }> {
    return this.request('GET', '/health');
  }

  reset(): Promise<{ status: 'ok' }> {
    return this.request('POST', '/reset');
  }

  readonly accounts = {
    /** A new tenant: `{ account, api_key }` with `clock`, `reset()` and `delete()` (src/admin/tenant-handle.ts). */
    create: async (input: CreateAccountInput = {}): Promise<Tenant> =>
      tenantHandle(
        this,
        await this.request<{ account: AdminAccount; api_key: AdminApiKey & { token: string } }>('POST', '/accounts', input),
      ),
    get: (id: string) => this.request<AccountStateSnapshot>('GET', `/accounts/${encodeURIComponent(id)}`),
    list: (query: { limit?: number; starting_after?: string } = {}) =>
      this.request<{ object: 'list'; data: AdminAccount[]; has_more: boolean }>('GET', `/accounts${queryString(query)}`),
    update: (id: string, input: { plan: 'free' | 'paid' }) =>
      this.request<{ account: AdminAccount }>('PATCH', `/accounts/${encodeURIComponent(id)}`, input),
    reset: (id: string) => this.request<{ account: AdminAccount }>('POST', `/accounts/${encodeURIComponent(id)}/reset`),
    delete: (id: string) => this.request<{ id: string; object: 'account'; deleted: true }>('DELETE', `/accounts/${encodeURIComponent(id)}`),
    /** Contract §5.3: everything needed to recreate the account; `create({ snapshot })` loads it. */
    snapshot: (id: string) => this.request<AccountSnapshot>('GET', `/accounts/${encodeURIComponent(id)}/snapshot`),
    /** The account's own clock: `clock(id).advance(60)`. */
    clock: (id: string) => accountClock(this, id),
  };

  readonly apiKeys = {
    create: (input: { account_id: string; name?: string | null; access?: 'full' | 'read_only'; expires_at?: string | null }) =>
      this.request<AdminApiKey & { token: string }>('POST', '/api_keys', input),
    expire: (id: string) => this.request<AdminApiKey>('POST', `/api_keys/${encodeURIComponent(id)}/expire`),
    revoke: (id: string) => this.request<AdminApiKey>('POST', `/api_keys/${encodeURIComponent(id)}/revoke`),
  };

  readonly clock = {
    get: () => this.request<ClockState>('GET', '/clock'),
    set: (input: { mode?: 'running' | 'frozen'; now?: string }) => this.request<ClockState>('POST', '/clock', input),
    freeze: (now?: string) => this.request<ClockState>('POST', '/clock', { mode: 'frozen', ...(now ? { now } : {}) }),
    /** `advance(60)`, or `advance({ until: 'idle', max_seconds? })` (contract §5.4), whose answer adds `advanced_seconds`. */
    advance: (input: ClockAdvanceInput) =>
      this.request<ClockState & { advanced_seconds?: number }>('POST', '/clock/advance', advanceBody(input)),
  };

  readonly scenarios = {
    list: () => this.request<{ available: AvailableScenario[]; active: ActiveScenarioView[] }>('GET', '/scenarios'),
    /** `activate('rate-limited')` or `activate({ name, account_id, times, params, … })`. */
    activate: (input: ActivationInput | string) =>
      this.request<ActiveScenarioView>('POST', '/scenarios', typeof input === 'string' ? { name: input } : input),
    get: (id: string) => this.request<ActiveScenarioView>('GET', `/scenarios/${encodeURIComponent(id)}`),
    deactivate: (id: string) => this.request<ActiveScenarioView & { deleted: true }>('DELETE', `/scenarios/${encodeURIComponent(id)}`),
    clear: () => this.request<{ deleted: number }>('DELETE', '/scenarios'),
  };

  /** The request journal: what clients sent to /v1, newest first. */
  readonly requests = {
    list: (query: JournalQuery = {}) =>
      this.request<{ object: 'list'; data: JournalEntry[]; has_more: boolean }>('GET', `/requests${queryString(query)}`),
    clear: () => this.request<{ deleted: number }>('DELETE', '/requests'),
  };

  /** Another name for `requests`. */
  readonly journal = this.requests;

  /** Contract §4.3: endpoints, the delivery log and triggered events. */
  readonly webhooks = {
    createEndpoint: (input: { account_id: string; url: string; events?: EventFilter; secret?: string }) =>
      this.request<WebhookEndpoint>('POST', '/webhook_endpoints', input),
    listEndpoints: (query: { account_id?: string } = {}) =>
      this.request<{ object: 'list'; data: WebhookEndpoint[]; has_more: boolean }>('GET', `/webhook_endpoints${queryString(query)}`),
    getEndpoint: (id: string) => this.request<WebhookEndpoint>('GET', `/webhook_endpoints/${encodeURIComponent(id)}`),
    deleteEndpoint: (id: string) =>
      this.request<{ id: string; object: 'webhook_endpoint'; deleted: true }>('DELETE', `/webhook_endpoints/${encodeURIComponent(id)}`),
    deliveries: (query: Partial<DeliveryFilter> = {}) =>
      this.request<{ object: 'list'; data: WebhookDeliveryView[]; has_more: boolean }>('GET', `/webhook_deliveries${queryString(query)}`),
    delivery: (id: string) => this.request<WebhookDeliveryView>('GET', `/webhook_deliveries/${encodeURIComponent(id)}`),
    /** Like `stripe trigger`: an event of `type` about a record of the account, sent to its endpoints. */
    trigger: (input: { account_id: string; type: EventType }) => this.request<WebhookEvent>('POST', '/events', input),
  };
}
